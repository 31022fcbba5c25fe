"""The verdict judges the tool_choice the request sends when ``providers.<id>.extra`` replaces the scenario's:
the scenario asks for f, extra sends g, and a model that calls g obeyed what was on the wire (core/sent_choice.py).

Against the repo's mock (`running_mock`, in-process, real sockets on 127.0.0.1): the mock's own reading of the body
it received (its record's ``tool_choice``) is the outside truth for what was sent; its default answer obeys that
choice, and a scripted call to f disobeys it. send, compare --send, run (each step) and probe judge alike; where the
written form cannot be read (a shape or word the API refuses) the scenario's choice is judged, and the ledger says
so."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from cli import run_cli  # noqa: E402
from servers import fixture  # noqa: E402

from toolchoice.providers.core.mock.script import Script, ScriptCall, Step  # noqa: E402
from toolchoice.providers.core.mock.server import running_mock  # noqa: E402
from toolchoice.providers.core.model import RenderOptions  # noqa: E402
from toolchoice.providers.core.registry import parse_reply, translate  # noqa: E402
from toolchoice.providers.core.scenario import load_scenario_text  # noqa: E402
from toolchoice.providers.core.verdict import verdict  # noqa: E402

TOOLS = """\
tools:
  - {name: f, parameters: {type: object, properties: {city: {type: string}}, required: [city]}}
  - {name: g, parameters: {type: object, properties: {city: {type: string}}, required: [city]}}
messages: [{role: user, content: weather in Paris}]
"""
# what extra writes to send g, in each family's own form (the API reference's shape for a forced function)
SENDS_G = {
    "openai": {"tool_choice": {"type": "function", "function": {"name": "g"}}},
    "gemini": {"toolConfig": {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["g"]}}},
    "anthropic": {"tool_choice": {"type": "tool", "name": "g"}},
}
KEYS = {"OPENAI_API_KEY": "sk-extra-choice-test-0123456789", "GEMINI_API_KEY": "AIza-extra-choice-test-012345",
        "ANTHROPIC_API_KEY": "sk-ant-extra-choice-test-0123456789"}
DISOBEYED = 4  # docs/commands.md, exit codes


@pytest.fixture(autouse=True)
def keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in KEYS.items():
        monkeypatch.setenv(name, value)


def scenario(tmp_path: Path, provider: str, extra: Any, choice: str = "tool_choice: f\n", tail: str = "") -> Path:
    path = tmp_path / "scenario.yaml"
    path.write_text(TOOLS + choice + f"providers:\n  {provider}:\n    extra: {json.dumps(extra)}\n" + tail,
                    encoding="utf-8")
    return path


def codes(ledger: list[dict[str, Any]]) -> list[str]:
    return [e["code"] for e in ledger]


# ---- send: a call to g obeys, a call to f is the wrong tool, on each family -------------------------------------


@pytest.mark.parametrize("provider", sorted(SENDS_G))
def test_send_judges_the_choice_extra_sends(tmp_path: Path, provider: str) -> None:
    path = scenario(tmp_path, provider, SENDS_G[provider])
    script = Script(replies=(Step(), Step(calls=(ScriptCall("f"),))))  # the default obeys the wire; then f
    with running_mock(provider, script=script) as mock:
        sent = [run_cli(["send", str(path), "-p", provider, "--base-url", mock.base_url, "--retries", "0",
                         "-f", "json"]) for _ in range(2)]
        read = [line["tool_choice"] for line in mock.records]
    assert read == [{"tool": "g"}, {"tool": "g"}]  # the mock read g from both bodies
    first, second = (json.loads(s.stdout) for s in sent)
    assert [s.returncode for s in sent] == [0, DISOBEYED], [s.stderr for s in sent]
    assert first["verdict"]["category"] == "obeyed"
    assert [c["name"] for c in first["verdict"]["calls"]] == ["g"]
    assert second["verdict"]["category"] == "wrong_tool"
    assert "forces 'g', but the reply called 'f'" in second["verdict"]["reasons"][0]
    assert any("providers." + provider + ".extra sends" in r for r in second["verdict"]["reasons"])
    assert "tool_choice.from_extra" in codes(first["ledger"])
    assert first["requested_tool_choice"] == {"tool": "f"}  # the scenario's, as before: the ledger says the change


def test_compare_send_and_run_judge_each_step_by_what_it_sends(tmp_path: Path) -> None:
    """compare --send tallies the same verdicts; run judges each step by the choice that step sends: step 2 asks
    for none, extra still sends g, and the call to g obeys."""
    path = scenario(tmp_path, "openai", SENDS_G["openai"])
    script = Script(replies=(Step(), Step(calls=(ScriptCall("f"),))))
    with running_mock("openai", script=script) as mock:
        compared = run_cli(["compare", str(path), "--send", "-p", "openai", "--base-url", mock.base_url,
                            "--retries", "0", "--repeat", "2", "--concurrency", "1", "-f", "json"])
    assert compared.returncode == DISOBEYED, compared.stderr
    counts = json.loads(compared.stdout)["providers"][0]["summary"]["counts"]
    assert (counts["obeyed"], counts["wrong_tool"]) == (1, 1)
    loop = scenario(tmp_path, "openai", SENDS_G["openai"],
                    tail="loop:\n  max_steps: 2\n  steps: [{tool_choice: f}, {tool_choice: none}]\n"
                         "  results: {f: {template: sunny}, g: {template: sunny}}\n")
    with running_mock("openai") as mock:
        ran = run_cli(["run", str(loop), "-p", "openai", "--base-url", mock.base_url, "--retries", "0", "-f", "json"])
        read = [line["tool_choice"] for line in mock.records]
    assert ran.returncode == 0, ran.stderr
    steps = json.loads(ran.stdout)["runs"][0]["loops"][0]["steps"]
    assert read == [{"tool": "g"}, {"tool": "g"}]
    assert [s["requested_tool_choice"] for s in steps] == [{"tool": "f"}, "none"]
    assert [s["verdict"]["category"] for s in steps] == ["obeyed", "obeyed"]  # 'none' judged as sent: g
    assert all("tool_choice.from_extra" in codes(s["ledger"]) for s in steps)


def test_probe_does_not_ask_a_question_whose_choice_extra_replaces(tmp_path: Path) -> None:
    """Each question would go out with extra's g: none is not asked (neither honored nor ignored: it was never sent),
    the named g question is asked and judged as sent, and the overlay holds no finding about none."""
    path = scenario(tmp_path, "openai", SENDS_G["openai"])
    with running_mock("openai") as mock:
        probed = run_cli(["probe", "-p", "openai", str(path), "--base-url", mock.base_url, "--retries", "0",
                          "--repeat", "1", "-f", "json"])
        read = [line["tool_choice"] for line in mock.records]
    assert probed.returncode == 0, probed.stderr
    data = json.loads(probed.stdout)
    outcomes = {q["feature"]: q for q in data["questions"]}
    assert outcomes["none"]["wire"] == SENDS_G["openai"]["tool_choice"]
    assert outcomes["none"]["result"] == "not asked"
    assert "providers.openai.extra sends its own tool_choice" in outcomes["none"]["evidence"]
    assert outcomes["named"]["result"] == "honored"
    assert "none" not in read  # the mock never received a none
    assert {"none", "auto", "required", "unset"}.isdisjoint(data["overlay"]["features"])
    assert data["overlay"]["features"]["named"]["result"] == "honored"


# ---- translation and verdict in-process: what is read back, and what is not --------------------------------------


def judged(provider: str, extra: Any, reply: Any, choice: str = "tool_choice: get_weather\n") -> tuple[Any, Any]:
    text = ("tools:\n  - {name: get_weather, parameters: {type: object, properties: {city: {type: string}, state: "
            "{type: string}}}}\n  - {name: get_stock_price, parameters: {type: object, properties: {ticker: "
            "{type: string}}}}\nmessages: [{role: user, content: hi}]\n" + choice
            + f"providers:\n  {provider}:\n    extra: {json.dumps(extra)}\n")
    loaded = load_scenario_text(text, "s.yaml")
    translation = translate(provider, loaded, RenderOptions())
    return translation, verdict(loaded, parse_reply(provider, reply), translation)


# openai-chat-single-strict: a recorded reply calling get_weather {"city": "San Francisco", "state": "CA"}
CALLS_WEATHER = fixture("openai", "openai-chat-single-strict")


def test_a_choice_extra_adds_is_judged_a_reply_without_a_call_breaks_it() -> None:
    text = {**CALLS_WEATHER, "choices": [{**CALLS_WEATHER["choices"][0], "finish_reason": "stop",
                                          "message": {"role": "assistant", "content": "Sunny."}}]}
    translation, found = judged("openai", {"tool_choice": "required"}, text, choice="")
    assert translation.effective_tool_choice == "required"
    assert found["category"] == "no_call"  # the scenario sets none; extra's required is what the model got


@pytest.mark.parametrize("provider, extra, why", [
    ("openai", {"tool_choice": "any"}, "the API refuses it"),  # Anthropic's word: OpenAI's types refuse it
    ("anthropic", {"tool_choice": "required"}, "the API refuses it"),  # OpenAI's word: not a ToolChoiceParam
    ("gemini", {"toolConfig": {"functionCallingConfig": {"type": "function"}}}, "the API refuses it"),
    ("openai", {"tool_choice": {"type": "function", "function": {"name": "h"}}}, "not a declared tool"),
])
def test_a_choice_that_cannot_be_read_keeps_the_scenarios_for_the_verdict(provider: str, extra: Any,
                                                                        why: str) -> None:
    translation, found = judged(provider, extra, CALLS_WEATHER) if provider == "openai" else \
        (translate(provider, load_scenario_text(TOOLS + "tool_choice: f\n" + f"providers:\n  {provider}:\n    extra: "
                                                f"{json.dumps(extra)}\n", "s.yaml"), RenderOptions()), None)
    unread = [e for e in translation.ledger if e.code == "tool_choice.extra_unread"]
    assert len(unread) == 1 and why in unread[0].message, translation.ledger
    assert "the verdict judges the scenario's tool_choice" in unread[0].message
    assert translation.sent_choice is None
    if found is not None:
        assert found["category"] == "obeyed"  # get_weather, as the scenario asks


def test_extra_that_only_adds_beside_the_choice_changes_nothing() -> None:
    translation = translate("gemini", load_scenario_text(
        TOOLS + "tool_choice: f\nproviders:\n  gemini:\n    extra: {toolConfig: {retrievalConfig: {languageCode: en}}}\n",
        "s.yaml"), RenderOptions())
    assert translation.sent_choice is None
    assert not [e for e in translation.ledger if e.code.startswith(("tool_choice.from", "tool_choice.extra"))]
