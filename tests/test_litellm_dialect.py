"""`--dialect litellm` held to what the real LiteLLM 1.110.2 sends or raises: every case below is rendered by the
dialect and sent by `litellm.completion` through `toolchoice mock` (tests/litellm_client.py, on 127.0.0.1), and the
tool fields of the two bodies are compared. The expected values are the bodies the mock recorded from LiteLLM and
the errors LiteLLM raised; none is computed by the code under test. The cases: 20 routes x tool_choice unset /
auto / none / required / any / named x parallel_tool_calls unset / false / true x drop_params off / on (720), plus
Bedrock Claude models LiteLLM's model map gives Anthropic's parallel switch, a model it marks unable to force a tool,
a forcing choice beside Claude's thinking and DeepSeek V4's, and a strict tool on every route."""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

from cli import run_cli
from litellm_client import NAMED, ROUTES, Client
from litellm_recorded import MODE, RECORDING, Recorded
from sdk_types import missing
from toolchoice.providers.core.choice import parse_tool_choice
from toolchoice.providers.core.registry import translate
from toolchoice.providers.core.scenario import load_scenario
from toolchoice.providers.litellm_dialect import apply
from toolchoice.providers.litellm_rules import ANTHROPIC_NO_FORCED_TOOL_USE, BEDROCK_PARALLEL_CONFIG

pytestmark = [pytest.mark.skipif(missing("litellm"), reason="the test extra's litellm"),
              pytest.mark.filterwarnings("ignore::DeprecationWarning"),
              pytest.mark.filterwarnings("ignore:.*`ReadOnly` qualifier:UserWarning")]

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "tests/dialect/litellm.yaml"  # litellm_client's tools, message and route models
# the scenario's tool_choice spelling, and the argument a LiteLLM user passes for it (OpenAI's spelling)
CHOICES: dict[str, tuple[str | None, Any]] = {"unset": (None, None), "auto": ("auto", "auto"), "none": ("none", "none"),
                                              "required": ("required", "required"), "any": ("any", "any"),
                                              "named": ("get_weather", NAMED)}
# an allowed-tools subset (get_weather of the two): the scenario's spelling, and OpenAI chat's allowed_tools object
ALLOWED_CHOICES: dict[str, tuple[Any, Any]] = {
    f"allowed-{mode}": ({"allowed": ["get_weather"], "mode": mode},
                        {"type": "allowed_tools", "allowed_tools": {"mode": mode, "tools": [NAMED]}})
    for mode in ("auto", "required")}
SPELLINGS = {**CHOICES, **ALLOWED_CHOICES}
# the body fields that carry tools, the choice, parallel calls and thinking on each wire
FIELDS = ("tools", "tool_choice", "parallel_tool_calls", "toolConfig", "additionalModelRequestFields", "thinking",
          "strict_tools")


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Recorded]:
    """LiteLLM's answers: recorded, with an eighth of the cases sent live and held to the recording
    (tests/litellm_recorded.py)."""
    with Client(tmp_path_factory.mktemp("litellm-dialect")) as made:
        recorded = Recorded(made, FIELDS)
        yield recorded
        recorded.write()
    assert made.outside == [], made.outside


@functools.cache
def _scenario() -> Any:
    return load_scenario(SCENARIO)


def render(provider: str, choice: str, parallel: bool | None, drop: bool, model: str | None = None,
           thinking: Any = None, tools: bool = True, path: Path = SCENARIO, api_version: str | None = None) -> Any:
    base = load_scenario(path) if path != SCENARIO else _scenario()
    spelled = SPELLINGS[choice][0]
    if not tools:
        base = base._replace(tools=())
    scenario = base._replace(parallel_tool_calls=parallel,
                             tool_choice=parse_tool_choice(spelled, base.tool_names or ("get_weather",))
                             if spelled else None)
    settings = scenario.settings_for(provider)
    if thinking is not None:
        settings = settings._replace(thinking=True, thinking_mode=thinking)
    if model is not None:
        settings = settings._replace(model=model)
    if api_version is not None:
        settings = settings._replace(api_version=api_version)
    scenario = scenario._replace(providers={**scenario.providers, provider: settings})
    api = translate(provider, scenario)
    return apply(api, scenario, {"drop_params": True} if drop else {})


def sent_by_litellm(client: Recorded, provider: str, choice: str, parallel: bool | None, drop: bool,
                    model: str | None = None, **more: Any) -> Any:
    arguments: dict[str, Any] = dict(more)
    if SPELLINGS[choice][1] is not None:
        arguments["tool_choice"] = SPELLINGS[choice][1]
    if parallel is not None:
        arguments["parallel_tool_calls"] = parallel
    if drop:
        arguments["drop_params"] = True
    return client.send(provider, model, arguments)


def hold(view: Any, sent: Any) -> None:
    """The dialect's view against what LiteLLM did: the same refusal, or the same tool fields."""
    if sent.body is None:  # LiteLLM raised before sending
        assert sent.error is not None
        refusals = [e.message for e in view.translation.ledger if e.code == "dialect.refused"]
        assert view.translation.request is None and len(refusals) == 1, view.translation.ledger
        said = " ".join(str(sent.error).split())
        assert " ".join(refusals[0].split()).split(": ", 1)[1].startswith(f"{type(sent.error).__name__}: {said}"), (
            refusals[0], said)
        return
    assert view.translation.request is not None, [e.message for e in view.translation.ledger]
    body = view.translation.request.body
    for field in FIELDS:
        assert body.get(field) == sent.body.get(field), (field, body.get(field), sent.body.get(field))
    assert "dialect.refused" not in [e.code for e in view.translation.ledger]


CASES = [pytest.param(p, c, par, drop, id=f"{p}-{c}-parallel={par}-drop={drop}")
         for p in ROUTES for c in CHOICES for par in (None, False, True) for drop in (False, True)]


@pytest.mark.parametrize("provider, choice, parallel, drop", CASES)
def test_the_dialect_is_what_litellm_sends_or_raises(client: Recorded, provider: str, choice: str,
                                                      parallel: bool | None, drop: bool) -> None:
    view = render(provider, choice, parallel, drop)
    assert view.route == ROUTES[provider][0], (view.route, ROUTES[provider][0])  # the route litellm_client uses
    hold(view, sent_by_litellm(client, provider, choice, parallel, drop))


NO_TOOLS = [pytest.param(p, c, par, drop, id=f"{p}-{c}-parallel={par}-drop={drop}")
            for p in ROUTES for c in CHOICES for par in (None, False) for drop in (False, True)]


@pytest.mark.parametrize("provider, choice, parallel, drop", NO_TOOLS)
def test_a_choice_without_tools_is_what_litellm_sends_or_raises(client: Recorded, provider: str, choice: str,
                                                                 parallel: bool | None, drop: bool) -> None:
    """litellm.completion(tools=None, tool_choice=X): the OpenAI-compatible routes, Mistral and Bedrock leave the
    choice out, Anthropic and Gemini send it (toolchoice refuses it there, in the API's words)."""
    view = render(provider, choice, parallel, drop, tools=False)
    hold(view, sent_by_litellm(client, provider, choice, parallel, drop, tools=None))


TOOL_SETS = {"weather": ROOT / "tests/dialect/weather.yaml", "nested": ROOT / "tests/dialect/nested.yaml"}


@pytest.mark.parametrize("provider", list(ROUTES))
@pytest.mark.parametrize("tool_set", list(TOOL_SETS))
def test_the_tool_declarations_are_what_litellm_sends(client: Recorded, provider: str, tool_set: str) -> None:
    """langchain's recorder tools (an enum, property descriptions; a nested array, anyOf) as LiteLLM writes them."""
    import yaml

    view = render(provider, "auto", None, False, path=TOOL_SETS[tool_set], model=ROUTES[provider][0].split("/", 1)[1]
                  .removeprefix("converse/"))
    written = yaml.safe_load(TOOL_SETS[tool_set].read_text())["tools"]
    tools = [{"type": "function", "function": {"name": t["name"], "description": t["description"],
                                               "parameters": t["parameters"]}} for t in written]
    hold(view, sent_by_litellm(client, provider, "auto", None, False, tools=tools))


# Bedrock ids LiteLLM gives no strict: a non-Anthropic family, a Claude id its map flags
# bedrock_converse_supports_strict_tools false
BEDROCK_NO_STRICT_IDS = ("amazon.nova-pro-v1:0", "us.anthropic.claude-opus-4-7")
STRICT_CASES = [pytest.param(p, c, None, id=f"{p}-{c}") for p in ROUTES for c in ("unset", "auto")] + [
    pytest.param("bedrock", "unset", m, id=f"bedrock-{m}") for m in BEDROCK_NO_STRICT_IDS]


@pytest.mark.parametrize("provider, choice, model", STRICT_CASES)
def test_a_strict_tool_is_what_litellm_sends(client: Recorded, provider: str, choice: str, model: str | None) -> None:
    """A strict tool with additionalProperties: false at two depths, beside a tool that is not strict, on every
    route: kept as given (the OpenAI-compatible routes, Mistral, Cohere, Ollama, Responses, Bedrock's Claude), strict
    left out (xAI, Fireworks, Anthropic; Bedrock's other models, with the top-level additionalProperties) or both
    stripped (hosted_vllm/, Gemini); never dialect.unchecked."""
    import yaml

    path = ROOT / "tests/dialect/strict.yaml"
    view = render(provider, choice, None, False, path=path,
                  model=model or ROUTES[provider][0].split("/", 1)[1].removeprefix("converse/"))
    keys = ("name", "description", "parameters", "strict")
    tools = [{"type": "function", "function": {k: t[k] for k in keys if k in t}}
             for t in yaml.safe_load(path.read_text())["tools"]]
    routed = f"{ROUTES[provider][0].split('/')[0]}/converse/{model}" if model else None
    hold(view, sent_by_litellm(client, provider, choice, None, False, model=routed, tools=tools))
    assert "dialect.unchecked" not in codes(view), codes(view)


def test_the_bedrock_strict_patterns_agree_with_litellms_own_check(client: Recorded) -> None:
    """BEDROCK_STRICT and BEDROCK_STRICT_FLAGGED_OFF against bedrock_converse_supports_strict_tools, for every Bedrock
    id in LiteLLM's bundled map."""
    from litellm.llms.bedrock.common_utils import bedrock_converse_supports_strict_tools

    from toolchoice.providers.litellm_rules import BEDROCK_STRICT, BEDROCK_STRICT_FLAGGED_OFF

    ids = [k for k, v in client.litellm.model_cost.items() if v.get("litellm_provider", "").startswith("bedrock")
           and "/" not in k]
    assert len(ids) > 100 and any(bedrock_converse_supports_strict_tools(m) for m in ids)
    for model in ids:
        ours = bool(BEDROCK_STRICT.search(model)) and not BEDROCK_STRICT_FLAGGED_OFF.search(model)
        assert ours == bedrock_converse_supports_strict_tools(model), model


HAIKU = "anthropic.claude-haiku-4-5-20251001-v1:0"  # supports_parallel_tool_use_config in LiteLLM's map


@pytest.mark.parametrize("choice", list(CHOICES))
@pytest.mark.parametrize("parallel", [False, True])
def test_bedrock_claude_parallel_rides_additional_model_request_fields(client: Recorded, choice: str,
                                                                       parallel: bool) -> None:
    view = render("bedrock", choice, parallel, True, model=HAIKU)
    hold(view, sent_by_litellm(client, "bedrock", choice, parallel, True, model=f"bedrock/converse/{HAIKU}"))


@pytest.mark.parametrize("choice", ["required", "named", "auto"])
@pytest.mark.parametrize("drop", [False, True])
def test_a_model_litellm_marks_unable_to_force_a_tool(client: Recorded, choice: str, drop: bool) -> None:
    """claude-opus-5-5 is supports_forced_tool_use: false in LiteLLM's map: a forcing choice raises, or with
    drop_params becomes auto."""
    view = render("anthropic", choice, None, drop, model="claude-opus-5-5")
    hold(view, sent_by_litellm(client, "anthropic", choice, None, drop, model="anthropic/claude-opus-5-5"))


def test_a_forcing_choice_beside_claude_thinking_is_sent_where_toolchoice_refuses(client: Recorded) -> None:
    from toolchoice.providers.core.model import ThinkingSetting

    view = render("anthropic", "required", None, False, thinking=ThinkingSetting("on", budget=1024))
    assert view.api.request is None and "thinking.forced_choice" in [e.code for e in view.api.ledger]
    thinking = view.translation.request.body["thinking"]
    sent = sent_by_litellm(client, "anthropic", "required", None, False, thinking=thinking)
    assert sent.body is not None and sent.body["thinking"] == thinking
    hold(view, sent)
    assert type(sent.error).__name__ == "BadRequestError"
    said = [e.message for e in view.translation.ledger if e.code == "dialect.differs"]
    assert any("Thinking may not be enabled when tool_choice forces tool use." in m for m in said), said


def test_deepseek_v4_gets_the_forcing_choice_without_thinking_disabled(client: Recorded) -> None:
    view = render("deepseek", "required", None, False, model="deepseek-v4-flash")
    assert view.api.request.body["thinking"] == {"type": "disabled"}
    sent = sent_by_litellm(client, "deepseek", "required", None, False, model="deepseek/deepseek-v4-flash")
    hold(view, sent)
    assert "Thinking mode does not support this tool_choice" in str(sent.error)
    assert any("Thinking mode does not support this tool_choice" in e.message
               for e in view.translation.ledger if e.code == "dialect.differs")


def test_the_model_map_rules_agree_with_litellms_own_checks(client: Recorded) -> None:
    """BEDROCK_PARALLEL_CONFIG and ANTHROPIC_NO_FORCED_TOOL_USE against LiteLLM's functions, for every Claude id in
    its bundled model map."""
    from litellm.llms.anthropic.common_utils import AnthropicModelInfo
    from litellm.llms.bedrock.common_utils import bedrock_converse_supports_parallel_tool_use_config

    ids = [k for k in client.litellm.model_cost if "claude" in k and "/" not in k]
    assert len(ids) > 100
    for model in ids:
        if model.startswith(("anthropic.", "global.", "us.", "eu.", "au.", "apac.", "jp.", "us-gov.")):
            assert bool(BEDROCK_PARALLEL_CONFIG.search(model)) == bedrock_converse_supports_parallel_tool_use_config(
                model), model
        if model.startswith("claude-"):
            assert bool(ANTHROPIC_NO_FORCED_TOOL_USE.search(model)) == AnthropicModelInfo.forced_tool_use_unsupported(
                model), model


MODEL_CASES = [pytest.param(p, m, c, par, drop, id=f"{p}-{m}-{c}-parallel={par}-drop={drop}")
               for p, m in (("fireworks", "accounts/fireworks/models/gpt-oss-120b"),  # takes tool_choice
                            ("fireworks", "accounts/fireworks/models/yi-large"),  # no function calling in the map
                            ("sambanova", "DeepSeek-R1"))  # no function calling in the map
               for c in CHOICES for par in (None, False) for drop in (False, True)]


@pytest.mark.parametrize("provider, model, choice, parallel, drop", MODEL_CASES)
def test_the_model_map_decides_which_tool_parameters_a_route_takes(client: Recorded, provider: str, model: str,
                                                                    choice: str, parallel: bool | None,
                                                                    drop: bool) -> None:
    view = render(provider, choice, parallel, drop, model=model)
    hold(view, sent_by_litellm(client, provider, choice, parallel, drop, model=f"{ROUTES[provider][0].split('/')[0]}/{model}"))


AZURE_CASES = [pytest.param(v, c, drop, id=f"azure-{v}-{c}-drop={drop}")
               for v in ("2023-07-01-preview", "2024-05-01-preview") for c in CHOICES for drop in (False, True)]


@pytest.mark.parametrize("version, choice, drop", AZURE_CASES)
def test_azure_tool_choice_by_api_version(client: Recorded, version: str, choice: str, drop: bool) -> None:
    """AzureOpenAIConfig refuses every tool_choice before 2023-12-01 and "required" up to 2024-05."""
    view = render("azure", choice, None, drop, api_version=version)
    hold(view, sent_by_litellm(client, "azure", choice, None, drop, api_version=version))


ALLOWED_CASES = [pytest.param(p, c, drop, None, id=f"{p}-{c}-drop={drop}")
                 for p in ROUTES for c in ALLOWED_CHOICES for drop in (False, True)] + [
    pytest.param("azure", "allowed-auto", drop, "2023-07-01-preview", id=f"azure-2023-07-01-preview-drop={drop}")
    for drop in (False, True)]


@pytest.mark.parametrize("provider, choice, drop, version", ALLOWED_CASES)
def test_an_allowed_tools_subset_is_what_litellm_sends_or_raises(client: Recorded, provider: str, choice: str,
                                                                 drop: bool, version: str | None) -> None:
    """OpenAI chat's allowed_tools choice: copied on openai/ and azure/ (refused on an api-version before 2023-12-01,
    drop_params or not), flattened on openai/responses/, and a BadRequestError before sending on every other route,
    drop_params or not."""
    view = render(provider, choice, None, drop, api_version=version)
    more = {"api_version": version} if version else {}
    hold(view, sent_by_litellm(client, provider, choice, None, drop, **more))
    assert "dialect.no_spelling" not in codes(view)


def test_the_model_map_sets_agree_with_litellms_own_checks(client: Recorded) -> None:
    """FIREWORKS_TOOL_CHOICE, FIREWORKS_NO_TOOLS and SAMBANOVA_TOOLS against the configs' own parameter lists, for
    every id of those providers in LiteLLM's bundled map and toolchoice's default models."""
    from litellm.llms.fireworks_ai.chat.transformation import FireworksAIConfig
    from litellm.llms.sambanova.chat import SambanovaConfig

    from toolchoice.providers.litellm_rules import FIREWORKS_NO_TOOLS, FIREWORKS_TOOL_CHOICE, SAMBANOVA_TOOLS

    def ids(provider: str, *more: str) -> list[str]:
        return sorted({k.removeprefix(provider + "/") for k, v in client.litellm.model_cost.items()
                       if v.get("litellm_provider") == provider} | set(more))

    fireworks, sambanova = FireworksAIConfig(), SambanovaConfig()
    fireworks_ids = ids("fireworks_ai", "accounts/fireworks/models/llama-v3p1-70b-instruct")
    assert len(fireworks_ids) > 100
    for model in fireworks_ids:
        taken = fireworks.get_supported_openai_params(model)
        assert ("tool_choice" in taken) == (model in FIREWORKS_TOOL_CHOICE), model
        assert ("tools" in taken) == (model not in FIREWORKS_NO_TOOLS), model
    for model in ids("sambanova", "Meta-Llama-3.3-70B-Instruct"):
        assert ("tool_choice" in sambanova.get_supported_openai_params(model)) == (model in SAMBANOVA_TOOLS), model


def test_no_together_model_is_marked_unable_to_call_functions(client: Recorded) -> None:
    """TogetherAIChatConfig drops (or refuses) tools and tool_choice only for a model its registry marks
    supports_function_calling false (_tool_params_to_drop); none in the bundled map is, so the route has no such rule."""
    from litellm.llms.together_ai.chat.transformation import _function_calling_verdict

    ids = [k.removeprefix("together_ai/") for k, v in client.litellm.model_cost.items()
           if v.get("litellm_provider") == "together_ai"]
    assert len(ids) > 50 and [m for m in ids if _function_calling_verdict(m) is False] == []


def test_the_recording_is_of_the_installed_litellm(client: Recorded) -> None:
    """The recording holds every case above, made by the LiteLLM installed here; an eighth of them were sent live
    this run and held to it (all of them with TOOLCHOICE_LITELLM=live)."""
    assert client.same_version or MODE == "record", (f"{RECORDING.name} is of LiteLLM {client.data.get('litellm')}, {client.installed} is "
                                 "installed: every case went live; record again (tests/litellm_recorded.py)")
    counted = sum(len(cases) for cases in (CASES, NO_TOOLS, MODEL_CASES, AZURE_CASES, ALLOWED_CASES, STRICT_CASES))
    counted += 2 * len(ROUTES) + 12 + 6 + 2
    calls = client.made if MODE == "record" else client.data["calls"]
    assert len(calls) == counted, (len(calls), counted)
    if MODE == "recorded":
        assert 0 < client.live < len(client.data["calls"]) / 4, client.live


def test_the_case_counts_docs_litellm_md_states() -> None:
    """docs/litellm.md states how many cases are held to LiteLLM: the matrices above are those."""
    page = (ROOT / "docs/litellm.md").read_text(encoding="utf-8")
    for cases in (CASES, NO_TOOLS, MODEL_CASES, AZURE_CASES, STRICT_CASES, ALLOWED_CASES):
        assert f"**{len(cases)} of {len(cases)}**" in page, len(cases)
    assert f"({len(ROUTES)} routes" in page


# ---- the ledger and the command line ----------------------------------------------------------------------------


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """``toolchoice ARGS`` in this process (tests/cli.py): what is checked is the output and the exit code, not a
    process of its own (the import test below starts one)."""
    return run_cli(list(args), cwd=ROOT)


def codes(view: Any) -> list[str]:
    return [e.code for e in view.translation.ledger]


def test_the_ledger_says_where_litellm_differs() -> None:
    anthropic_any = render("anthropic", "any", None, False)
    differs = [e for e in anthropic_any.translation.ledger if e.code == "dialect.differs"]
    assert any(e.severity == "warning" and e.message.startswith("tool_choice: LiteLLM sends nothing")
               and "transformation.py:2026" in e.message for e in differs), differs
    cohere = render("cohere", "none", None, False)
    assert any(e.message.startswith('tool_choice: LiteLLM sends nothing; the API request sends "NONE"')
               for e in cohere.translation.ledger if e.code == "dialect.differs")
    ollama = render("ollama", "none", None, False)
    assert any("LiteLLM sends every tool it is given (2)" in e.message and "may call one" in e.message
               for e in ollama.translation.ledger if e.code == "dialect.differs")
    same = render("openai", "named", None, False)
    assert "dialect.differs" not in codes(same) and same.translation.request.body == same.api.request.body


@pytest.mark.parametrize("provider, choice, drop, words", [
    ("gemini", "any", True, "VertexAI doesn't support tool_choice=any."),
    ("bedrock", "any", True, "Bedrock doesn't support tool_choice=any."),
    ("bedrock", "none", False, "Bedrock doesn't support tool_choice=none."),
    ("cohere", "auto", False, "cohere_chat does not support parameters: ['parallel_tool_calls']")])
def test_the_raise_cases_say_litellms_words(provider: str, choice: str, drop: bool, words: str) -> None:
    view = render(provider, choice, False if provider == "cohere" else None, drop)
    (refusal,) = [e for e in view.translation.ledger if e.code == "dialect.refused"]
    assert refusal.severity == "error" and words in refusal.message and view.translation.request is None


def test_render_and_compare_through_the_cli() -> None:
    data = run("render", str(SCENARIO), "-p", "bedrock", "--tool-choice", "none", "--dialect", "litellm", "-f", "json")
    assert data.returncode == 3, data.stderr
    view = json.loads(data.stdout)
    assert view["dialect"] == "litellm" and view["request"] is None and view["drop_params"] is False
    assert view["route"] == "bedrock/converse/anthropic.claude-3-5-sonnet-20240620-v1:0"
    dropped = run("render", str(SCENARIO), "-p", "bedrock", "--tool-choice", "none", "--dialect", "litellm",
                  "--drop-params", "-f", "json")
    assert dropped.returncode == 0, dropped.stderr
    body = json.loads(dropped.stdout)["request"]["body"]
    assert "toolChoice" not in body["toolConfig"] and len(body["toolConfig"]["tools"]) == 2
    assert "drop_params=True" in json.loads(dropped.stdout)["completion"]
    table = run("compare", str(SCENARIO), "--tool-choice", "any", "--dialect", "litellm", "-f", "markdown")
    assert table.returncode == 3 and "litellm route" in table.stdout.splitlines()[0]
    assert "| anthropic/claude-sonnet-4-5 |" in table.stdout
    pretty = run("render", str(SCENARIO), "-p", "anthropic", "--tool-choice", "any", "--dialect", "litellm")
    assert pretty.returncode == 0 and "LiteLLM anthropic/claude-sonnet-4-5" in pretty.stdout


def test_a_request_rebuilt_where_toolchoice_refuses_keeps_the_command_line_model() -> None:
    """configs/think-forced.yaml forces a tool beside Claude's manual thinking: toolchoice refuses it, LiteLLM sends it;
    the request LiteLLM sends is rebuilt with the --model given, not the scenario's."""
    result = run("render", "configs/think-forced.yaml", "-p", "anthropic", "--dialect", "litellm", "-m",
                 "claude-sonnet-4-5", "-f", "json")
    assert result.returncode == 0, result.stderr
    view = json.loads(result.stdout)
    assert view["route"] == "anthropic/claude-sonnet-4-5" and view["request"]["body"]["model"] == "claude-sonnet-4-5"
    assert view["api"]["request"] is None and view["request"]["body"]["thinking"]["type"] == "enabled"
    assert view["request"]["body"]["tool_choice"]["name"] == "think"


def test_strict_tools_are_described_with_litellms_source() -> None:
    def ledger(provider: str, *more: str) -> list[dict[str, Any]]:
        return json.loads(run("render", "configs/strict-schema.yaml", "-p", provider, "--dialect", "litellm",
                              "-f", "json", *more).stdout)["ledger"]

    anthropic = ledger("anthropic")
    assert "dialect.unchecked" not in [e["code"] for e in anthropic]
    assert any(e["code"] == "dialect.differs" and e["message"].startswith('tools: LiteLLM leaves "strict" out')
               and "transformation.py:1136" in e["message"] for e in anthropic), anthropic
    nova = ledger("bedrock", "-m", "amazon.nova-pro-v1:0")
    assert any(e["code"] == "dialect.differs" and "leaves toolSpec.strict" in e["message"]
               and "types/llms/bedrock.py:313" in e["message"] for e in nova), nova
    claude = ledger("bedrock")
    assert "dialect.unchecked" not in [e["code"] for e in claude + nova]
    assert not [e for e in claude if e["code"] == "dialect.differs" and "toolConfig.tools" in e["message"]], claude


def test_drop_params_without_litellm_and_send_are_one_line_exit_2() -> None:
    for args in (("render", str(SCENARIO), "--drop-params"),
                 ("render", str(SCENARIO), "--drop-params", "--dialect", "langchain"),
                 ("compare", str(SCENARIO), "--dialect", "litellm", "--send")):
        result = run(*args)
        assert result.returncode == 2 and result.stdout == "", args
        assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr, result.stderr
    assert "--drop-params" in run("render", str(SCENARIO), "--drop-params").stderr


IMPORTS = """
import atexit, sys
sys.argv = ["toolchoice"] + sys.argv[1:]
from toolchoice.cli.app import main


def loaded():
    print(sorted(m for m in sys.modules if m.split(".")[0] in ("litellm", "httpx")
                 or m.endswith(("litellm_dialect", "langchain_dialect"))))


atexit.register(loaded)
main()
"""


def test_render_imports_neither_litellm_nor_the_dialect_unless_asked() -> None:
    def imports(*args: str) -> str:
        return subprocess.run([sys.executable, "-c", IMPORTS, "render", str(SCENARIO), "-f", "json", *args],
                              capture_output=True, text=True, timeout=120).stdout

    assert imports().strip().endswith("[]")
    assert imports("--dialect", "litellm").strip().endswith("['toolchoice.providers.litellm_dialect']")
