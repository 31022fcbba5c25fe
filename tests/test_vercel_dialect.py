"""`--dialect vercel` held to what the real Vercel AI SDK sent: every request in tests/data/peers/vercel/ and
tests/data/peers/vercel-options/ (recorded by tests/recorders/vercel/record.mjs through ``toolchoice mock``: ai 7.0.173
and the pinned @ai-sdk/* packages; their SOURCES.md) is compared, in its tool fields, with the body the dialect
describes for the same call. The call comes from the recording's ``cases.json`` (the toolChoice, activeTools and
providerOptions generateText was given), the expected body from the recorded request; none is computed by the code
under test. Node is never run here.
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from cli import run_cli
from toolchoice.providers.core.choice import parse_tool_choice
from toolchoice.providers.core.model import RenderOptions
from toolchoice.providers.core.registry import translate
from toolchoice.providers.core.scenario_dict import load_scenario_dict
from toolchoice.providers.vercel_dialect import apply

ROOT = Path(__file__).resolve().parents[1]
PEERS = ROOT / "tests" / "data" / "peers"
SCENARIO = ROOT / "tests" / "dialect" / "vercel.yaml"  # record.mjs's tools (as zod wrote them), prompt and models
# the body fields that carry the tools, the choice, parallel calls and thinking on each wire
FIELDS = ("tools", "tool_choice", "parallel_tool_calls", "toolConfig", "additionalModelRequestFields", "thinking")
# record.mjs's targets: toolchoice's provider id, and the model where the target's differs from the scenario's
TARGETS: dict[str, tuple[str, str | None]] = {
    "openai-chat": ("openai", None), "openai-responses": ("openai-responses", None), "anthropic": ("anthropic", None),
    "anthropic-thinking": ("anthropic", "claude-sonnet-4-6"),
    "anthropic-sonnet-5-5": ("anthropic", "claude-sonnet-5-5"),
    "google": ("gemini", None), "mistral": ("mistral", None), "groq": ("groq", None), "cohere": ("cohere", None),
    "deepseek": ("deepseek", None), "openai-compatible-xai": ("xai", None), "openai-compatible": ("vllm", None),
    "amazon-bedrock": ("bedrock", None), "azure": ("azure", None), "togetherai": ("together", None),
    "fireworks": ("fireworks", None), "cerebras": ("cerebras", None),
    "openai-compatible-openrouter": ("openrouter", None),
    "openai-compatible-sambanova": ("sambanova", None), "openai-compatible-huggingface": ("huggingface", None),
}
# record.mjs's `options` targets (tests/data/peers/vercel-options/): providerOptions for parallel calls
# (parallelToolCalls, disableParallelToolUse) on and off for each choice, and adaptive thinking
OPTIONS: dict[str, tuple[str, str | None]] = {
    "openai-chat-parallel": ("openai", None), "openai-responses-parallel": ("openai-responses", None),
    "groq-parallel": ("groq", None), "mistral-parallel": ("mistral", None), "anthropic-parallel": ("anthropic", None),
    "amazon-bedrock-parallel": ("bedrock", None), "anthropic-adaptive": ("anthropic", "claude-sonnet-4-6"),
    # @ai-sdk/openai-compatible and the packages built on it: providerOptions[name].parallel_tool_calls, copied
    "azure-parallel": ("azure", None), "openai-compatible-parallel": ("vllm", None),
    "togetherai-parallel": ("together", None), "fireworks-parallel": ("fireworks", None),
    "cerebras-parallel": ("cerebras", None),
}
TARGETS.update(OPTIONS)


def folder(target: str) -> Path:
    return PEERS / ("vercel-options" if target in OPTIONS else "vercel") / target


def _cases() -> list[tuple[str, dict[str, Any], int]]:
    """(target, the case as cases.json records it, one sample it sent): every recorded request."""
    found = []
    for target in TARGETS:
        for case in json.loads((folder(target) / "cases.json").read_text(encoding="utf-8"))["cases"]:
            found += [(target, case, n) for n in case["samples"]]
    return found


CASES = _cases()


@functools.cache
def _base() -> dict[str, Any]:
    return yaml.safe_load(SCENARIO.read_text(encoding="utf-8"))


def scenario_for(target: str, case: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """The scenario and dialect settings a user writes for the recorded generateText call."""
    provider, model = TARGETS[target]
    data = json.loads(json.dumps(_base()))
    settings = data["providers"][provider]
    if model:
        settings["model"] = model
    given, options = case["toolChoice"], case.get("providerOptions") or {}
    choice: Any = None
    if isinstance(given, str):
        choice = given
    elif isinstance(given, dict):
        choice = given["toolName"]
    allowed = (options.get("openai") or {}).get("allowedTools")
    if allowed:
        choice = {"allowed": allowed["toolNames"], "mode": allowed["mode"]}
    thinking = (options.get("anthropic") or options.get("deepseek") or {}).get("thinking")
    if thinking == {"type": "disabled"}:
        settings["thinking"] = False
    elif thinking == {"type": "adaptive"}:
        settings["thinking"] = "adaptive"
    elif thinking:
        settings["thinking"] = {"budget": thinking["budgetTokens"]}
    for space in options.values():
        if "parallelToolCalls" in space or "parallel_tool_calls" in space:
            data["parallel_tool_calls"] = space.get("parallelToolCalls", space.get("parallel_tool_calls"))
        if "disableParallelToolUse" in space:
            data["parallel_tool_calls"] = not space["disableParallelToolUse"]
    scenario = load_scenario_dict(data)
    if choice is not None:
        scenario = scenario._replace(tool_choice=parse_tool_choice(choice, scenario.tool_names))
    return scenario, ({"active_tools": tuple(case["activeTools"])} if case["activeTools"] else {})


def fields(body: dict[str, Any]) -> dict[str, Any]:
    return {k: body[k] for k in FIELDS if k in body}


def recorded(target: str, sample: int) -> dict[str, Any]:
    return json.loads((folder(target) / f"sample-{sample:03d}.request.json").read_text(encoding="utf-8"))["body"]


def described(target: str, case: dict[str, Any]) -> Any:
    scenario, settings = scenario_for(target, case)
    provider = TARGETS[target][0]
    options = RenderOptions(stream=case["call"] == "streamText")  # streamText: render --stream
    return apply(translate(provider, scenario, options), scenario, settings)


@pytest.mark.parametrize("target, case, sample", CASES,
                         ids=[f"{t}-{c['case']}-{c['call']}-{n}" for t, c, n in CASES])
def test_the_dialect_sends_what_the_ai_sdk_sent(target: str, case: dict[str, Any], sample: int) -> None:
    """Each recorded request (each step of an agent loop: the SDK sends the same tool fields every step)."""
    view = described(target, case)
    assert view.translation.request is not None, view.translation.ledger
    assert fields(view.translation.request.body) == fields(recorded(target, sample))


# what the dialect leaves as the API request's: the history's form, the packages' defaults (Anthropic's max_tokens,
# Google's empty generationConfig, Bedrock's additionalModelResponseFieldPaths) and streaming's extra keys
NOT_DESCRIBED = {"messages", "input", "contents", "system", "max_tokens", "generationConfig", "stream", "stream_options",
                 "additionalModelResponseFieldPaths"}
# and per provider: Azure's chat model (@ai-sdk/openai 4.0.81's OpenAIChatLanguageModel, dist/internal/index.js
# line 1245: 'model: this.modelId') names the deployment in the body as well; toolchoice's azure request has it in
# the URL alone
NOT_DESCRIBED_FOR = {"azure": {"model"}}


def test_outside_the_tool_fields_only_what_the_dialect_leaves_to_the_api_request_differs() -> None:
    whole = 0
    for target, case, sample in CASES:
        ours, theirs = described(target, case).translation.request.body, recorded(target, sample)
        differ = {k for k in set(ours) | set(theirs) if ours.get(k) != theirs.get(k)}
        left = NOT_DESCRIBED | NOT_DESCRIBED_FOR.get(TARGETS[target][0], set())
        assert differ <= left, (target, case["case"], differ - left)
        whole += not differ
    assert whole >= 160  # 160 of 352 whole bodies equal on 2026-11-28 (docs/vercel-ai-sdk.md)


def test_every_recorded_request_is_held_and_docs_state_the_count() -> None:
    assert sorted(p.name for p in (PEERS / "vercel-options").iterdir() if p.is_dir()) == sorted(OPTIONS)
    assert sorted(p.name for p in (PEERS / "vercel").iterdir() if p.is_dir()) == sorted(set(TARGETS) - set(OPTIONS))
    requests = {(t, p.name) for t in TARGETS for p in folder(t).glob("sample-*.request.json")}
    assert len(requests) == len(CASES) == len(set((t, n) for t, _, n in CASES))
    page = (ROOT / "docs/vercel-ai-sdk.md").read_text(encoding="utf-8")
    assert f"**{len(CASES)} of {len(CASES)}**" in page


# ---- the ledger and the command line ----------------------------------------------------------------------------


def codes(view: Any, code: str) -> list[Any]:
    return [e for e in view.translation.ledger if e.code == code]


def _case(target: str, name: str) -> dict[str, Any]:
    cases = json.loads((folder(target) / "cases.json").read_text(encoding="utf-8"))["cases"]
    return next(c for c in cases if c["case"] == name and c["call"] == "generateText")


def test_the_ledger_says_where_the_ai_sdk_differs() -> None:
    mistral = described("mistral", _case("mistral", "tool-get_time"))  # @ai-sdk/mistral 4.0.80+: the API's own form
    assert codes(mistral, "dialect.differs") == [] and mistral.translation.request.body == mistral.api.request.body
    bedrock = described("amazon-bedrock", _case("amazon-bedrock", "tool-get_time"))
    said = [e.message for e in codes(bedrock, "dialect.differs")]
    assert any(m.startswith("toolConfig.tools: the AI SDK sends ['get_time']") and "dist/index.js:423" in m
               for m in said), said
    unset = described("openai-chat", _case("openai-chat", "unset"))
    assert any("ai@7.0.173 dist/index.js:2119" in e.message for e in codes(unset, "dialect.differs"))
    deepseek = described("deepseek", _case("deepseek", "required"))
    assert any(e.severity == "warning" and e.message.startswith("thinking: the package keeps thinking on")
               and "Thinking mode does not support this tool_choice" in e.message
               for e in codes(deepseek, "dialect.differs"))
    thinking = described("anthropic-thinking", _case("anthropic-thinking", "required"))
    assert thinking.api.request is None  # toolchoice refuses: Anthropic answers a forcing choice with thinking 400
    assert any("sends auto for the forcing choice" in e.message for e in codes(thinking, "dialect.differs"))
    same = described("groq", _case("groq", "required"))
    assert codes(same, "dialect.differs") == [] and same.translation.request.body == same.api.request.body
    router = described("openai-compatible-openrouter", _case("openai-compatible-openrouter", "required"))
    assert router.api.request.body["provider"] == {"require_parameters": True}  # toolchoice's, for a forcing choice
    (warned,) = [e for e in codes(router, "dialect.differs") if e.severity == "warning"]
    assert warned.message.startswith("provider.require_parameters: the AI SDK sends none")
    assert "@ai-sdk/openai-compatible@3.0.92 dist/index.js:531" in warned.message
    azure = described("azure", _case("azure", "tool-get_time"))
    (route,) = codes(azure, "dialect.route")
    assert "'return createResponsesModel(deploymentId)', dist/index.js:391" in route.message
    assert azure.model == "@ai-sdk/azure azure.chat('gpt-5.4-mini')"
    together = described("togetherai", _case("togetherai", "unset"))
    unset, auto = codes(together, "dialect.differs")  # ai's auto for an unset choice, as the bundled pin sends it
    assert "ai@7.0.173 dist/index.js:2119" in unset.message and auto.message.startswith(
        'tool_choice: the AI SDK sends "auto"; the API request sends nothing (@ai-sdk/togetherai@3.0.54 -> '
        '@ai-sdk/openai-compatible@3.0.53 dist/index.js:425: case "auto":')
    assert together.model == "@ai-sdk/togetherai togetherai('zai-org/GLM-5.1')"
    scenario, _ = scenario_for("togetherai", _case("togetherai", "auto"))
    ollama = apply(translate("ollama", scenario), scenario)
    (none,) = codes(ollama, "dialect.no_route")
    assert "ollama-ai-provider-v2" in none.message and ollama.translation.request == ollama.api.request


def test_parallel_tool_calls_as_each_package_takes_them() -> None:
    """What the packages' sources say (vercel_rules' Parallel rows), on the API request's own scenario (the recorded
    options targets hold the same rows to the real packages)."""
    scenario, _ = scenario_for("openai-chat", _case("openai-chat", "auto"))
    off = scenario._replace(parallel_tool_calls=False)
    openai = apply(translate("openai", off), off)
    assert openai.translation.request.body["parallel_tool_calls"] is False
    assert '"parallelToolCalls": false' in openai.call
    anthropic = apply(translate("anthropic", off), off)
    assert anthropic.translation.request.body["tool_choice"] == {"type": "auto", "disable_parallel_tool_use": True}
    vllm = apply(translate("vllm", off), off)  # @ai-sdk/openai-compatible copies providerOptions[name]'s other keys
    assert vllm.translation.request.body["parallel_tool_calls"] is False
    assert '"vllm": {"parallel_tool_calls": false}' in vllm.call and "createOpenAICompatible({name: 'vllm'" in vllm.call
    cohere = apply(translate("cohere", off), off)
    assert "parallel_tool_calls" not in cohere.translation.request.body
    assert any("@ai-sdk/cohere has no providerOptions for it" in e.message
               for e in codes(cohere, "dialect.unchecked"))
    bedrock = apply(translate("bedrock", off), off)
    body = bedrock.translation.request.body
    assert body["additionalModelRequestFields"]["tool_choice"] == {"type": "auto", "disable_parallel_tool_use": True}
    assert "toolChoice" not in body["toolConfig"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """``toolchoice ARGS`` in this process (tests/cli.py): what is checked is the output and the exit code, not a
    process of its own (the import test below starts one)."""
    return run_cli(list(args), cwd=ROOT)


def test_render_and_compare_through_the_cli() -> None:
    data = run("render", str(SCENARIO), "-p", "mistral", "--tool-choice", "get_time", "--dialect", "vercel",
               "-f", "json")
    assert data.returncode == 0, data.stderr
    view = json.loads(data.stdout)
    assert view["dialect"] == "vercel" and view["package"] == "@ai-sdk/mistral mistral('mistral-small-latest')"
    assert view["request"]["body"]["tool_choice"] == {"type": "function", "function": {"name": "get_time"}}
    assert [t["function"]["name"] for t in view["request"]["body"]["tools"]] == ["get_weather", "get_time"]
    active = json.loads(run("render", str(SCENARIO), "-p", "openai", "--dialect", "vercel", "--active-tools",
                            "get_time", "-f", "json").stdout)
    assert [t["function"]["name"] for t in active["request"]["body"]["tools"]] == ["get_time"]
    assert active["active_tools"] == ["get_time"] and 'activeTools: ["get_time"]' in active["generate_text"]
    table = run("compare", str(SCENARIO), "--tool-choice", "get_time", "--dialect", "vercel", "-f", "markdown")
    assert table.returncode == 0 and "ai-sdk model" in table.stdout.splitlines()[0]
    # @<wbr>: GitHub's TeamMentionFilter reads @org/team as a team's mention (markdown_text); it renders as written
    assert "| @<wbr>ai-sdk/cohere cohere('command-a-03-2025') |" in table.stdout


def test_active_tools_outside_the_dialect_or_the_scenario_is_one_line_exit_2() -> None:
    for args, words in ((("render", str(SCENARIO), "--active-tools", "get_time"), "--active-tools"),
                        (("render", str(SCENARIO), "--dialect", "litellm", "--active-tools", "get_time"), "vercel"),
                        (("render", str(SCENARIO), "--dialect", "vercel", "--active-tools", "nope"), "'nope'"),
                        (("compare", str(SCENARIO), "--dialect", "vercel", "--send"), "dry run")):
        result = run(*args)
        assert result.returncode == 2 and result.stdout == "", args
        assert len(result.stderr.strip().splitlines()) == 1 and words in result.stderr, result.stderr


IMPORTS = """
import atexit, sys
sys.argv = ["toolchoice"] + sys.argv[1:]
from toolchoice.cli.app import main


def loaded():
    print(sorted(m for m in sys.modules
                 if m.endswith(("vercel_dialect", "vercel_rules")) or m.split(".")[0] == "httpx"))


atexit.register(loaded)
main()
"""


def test_render_imports_the_dialect_only_when_asked() -> None:
    def imports(*args: str) -> str:
        return subprocess.run([sys.executable, "-c", IMPORTS, "render", str(SCENARIO), "-f", "json", *args],
                              capture_output=True, text=True, timeout=120, cwd=ROOT).stdout

    assert imports().strip().endswith("[]")
    assert imports("--dialect", "vercel").strip().endswith(
        "['toolchoice.providers.vercel_dialect', 'toolchoice.providers.vercel_rules']")
