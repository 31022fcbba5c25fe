"""The verdict judges the tool_choice the request sends when ``providers.<id>.extra`` replaces the scenario's:
the scenario asks for f, extra sends g, and a model that calls g obeyed what was on the wire (core/sent_choice.py).

Against the repo's mock (`running_mock`, in-process, real sockets on 127.0.0.1): the mock's own reading of the body
it received (its record's ``tool_choice``) is the outside truth for what was sent; its default answer obeys that
choice, and a scripted call to f disobeys it. send, compare --send, run (each step) and probe judge alike; where the
written form cannot be read (a shape or word the API refuses) the scenario's choice is judged, and the ledger says
so. The parallel setting alike: where extra changes the field that holds it, the verdict judges the one sent."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from cli import run_cli  # noqa: E402
from sdk_types import check, missing  # noqa: E402
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


# ---- the parallel setting extra sends: judged as sent, read by the family's reader ---------------------------------
# The two-call replies come from outside the code: OpenAI's recorded body (openai-python's own test,
# openai-chat-parallel), and Anthropic's and Gemini's built with their SDKs' response types. The sent bodies are held
# to the SDKs' request types, whose docstrings say what a left-out field means.

PARALLEL_TOOLS = """\
tools:
  - {name: GetWeatherArgs, parameters: {type: object, properties: {city: {type: string}, country: {type: string},
                                                                   units: {type: string}}}}
  - {name: get_stock_price, parameters: {type: object, properties: {ticker: {type: string}, exchange: {type: string}}}}
messages: [{role: user, content: weather in Edinburgh and the AAPL price}]
"""
TWO_CALLS_OPENAI = fixture("openai", "openai-chat-parallel")  # GetWeatherArgs and get_stock_price in one reply


def parallel_judged(provider: str, reply: Any, parallel: str, extra: Any | None,
                    choice: str = "tool_choice: required\n") -> tuple[Any, dict[str, Any]]:
    text = PARALLEL_TOOLS + choice + parallel
    if extra is not None:
        text += f"providers:\n  {provider}:\n    extra: {json.dumps(extra)}\n"
    loaded = load_scenario_text(text, "s.yaml")
    translation = translate(provider, loaded, RenderOptions())
    return translation, verdict(loaded, parse_reply(provider, reply), translation)


def two_calls_anthropic() -> dict[str, Any]:
    from anthropic.types import Message, ToolUseBlock, Usage

    return Message(id="msg_1", type="message", role="assistant", model="claude-sonnet-5", stop_reason="tool_use",
                   content=[ToolUseBlock(type="tool_use", id="toolu_1", name="GetWeatherArgs", input={"city": "Paris"}),
                            ToolUseBlock(type="tool_use", id="toolu_2", name="get_stock_price",
                                         input={"ticker": "AAPL"})],
                   usage=Usage(input_tokens=1, output_tokens=1)).model_dump(mode="json", exclude_none=True)


def two_calls_gemini() -> dict[str, Any]:
    from google.genai import types

    parts = [types.Part(function_call=types.FunctionCall(name="GetWeatherArgs", args={"city": "Paris"})),
             types.Part(function_call=types.FunctionCall(name="get_stock_price", args={"ticker": "AAPL"}))]
    return types.GenerateContentResponse(candidates=[types.Candidate(
        content=types.Content(role="model", parts=parts), finish_reason="STOP")]).model_dump(
        mode="json", by_alias=True, exclude_none=True)


@pytest.mark.skipif(missing("openai"), reason="openai (in [test]) is not installed")
def test_openai_parallel_tool_calls_extra_sends_is_what_the_verdict_judges() -> None:
    from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming

    _, alone = parallel_judged("openai", TWO_CALLS_OPENAI, "parallel_tool_calls: false\n", None)
    assert alone["category"] == "too_many_calls"  # the scenario's false, sent as is: two calls break it
    translation, found = parallel_judged("openai", TWO_CALLS_OPENAI, "parallel_tool_calls: false\n",
                                         {"parallel_tool_calls": True})
    body = translation.request.body
    assert check(body, CompletionCreateParamsNonStreaming) == [] and body["parallel_tool_calls"] is True
    assert found["category"] == "obeyed", found["reasons"]
    assert any("providers.openai.extra sends (parallel_tool_calls true)" in r for r in found["reasons"])
    [entry] = [e for e in translation.ledger if e.code == "parallel.from_extra"]
    assert "parallel_tool_calls true in place of the scenario's parallel_tool_calls false" in entry.message
    # and the other way: the scenario sets none, extra sends false
    translation, found = parallel_judged("openai", TWO_CALLS_OPENAI, "", {"parallel_tool_calls": False})
    assert translation.request.body["parallel_tool_calls"] is False
    assert found["category"] == "too_many_calls"
    # the same setting as the scenario's for a judge: nothing to say
    translation, _ = parallel_judged("openai", TWO_CALLS_OPENAI, "parallel_tool_calls: false\n",
                                     {"parallel_tool_calls": False})
    assert translation.sent_parallel is None
    assert not [e for e in translation.ledger if e.code.startswith(("parallel.from", "parallel.extra"))]


@pytest.mark.skipif(missing("anthropic"), reason="anthropic (in [test]) is not installed")
def test_anthropic_tool_choice_extra_writes_without_the_flag_allows_several_calls() -> None:
    """The scenario's false goes on the wire as tool_choice.disable_parallel_tool_use; extra's tool_choice replaces
    that object whole, without the flag, and the SDK's type says a left-out flag is false: several calls allowed."""
    import inspect

    from anthropic.types import tool_choice_any_param
    from anthropic.types.message_create_params import MessageCreateParamsNonStreaming

    assert "Defaults to `false`" in inspect.getsource(tool_choice_any_param)
    reply = two_calls_anthropic()
    alone, judged_alone = parallel_judged("anthropic", reply, "parallel_tool_calls: false\n", None)
    assert alone.request.body["tool_choice"] == {"type": "any", "disable_parallel_tool_use": True}
    assert judged_alone["category"] == "too_many_calls"
    translation, found = parallel_judged("anthropic", reply, "parallel_tool_calls: false\n",
                                         {"tool_choice": {"type": "any"}})
    body = translation.request.body
    assert check(body, MessageCreateParamsNonStreaming) == [] and body["tool_choice"] == {"type": "any"}
    assert found["category"] == "obeyed", found["reasons"]
    assert translation.sent_choice is None  # any, as the scenario's required: only the parallel setting changed
    [entry] = [e for e in translation.ledger if e.code == "parallel.from_extra"]
    assert entry.message.startswith("providers.anthropic.extra sends no tool_choice.disable_parallel_tool_use in "
                                    "place of the scenario's parallel_tool_calls false")
    # a flag that is not a boolean does not read back: the scenario's false is judged
    translation, found = parallel_judged("anthropic", reply, "parallel_tool_calls: false\n",
                                         {"tool_choice": {"type": "any", "disable_parallel_tool_use": "yes"}})
    assert [e.code for e in translation.ledger if e.code.startswith("parallel.extra")] == ["parallel.extra_unread"]
    assert found["category"] == "too_many_calls"


@pytest.mark.skipif(missing("google.genai"), reason="google-genai (in [test]) is not installed")
def test_a_family_without_a_parallel_field_keeps_the_scenarios_setting() -> None:
    translation, found = parallel_judged("gemini", two_calls_gemini(), "parallel_tool_calls: false\n",
                                         {"toolConfig": {"functionCallingConfig": {"mode": "AUTO"}}})
    assert translation.sent_parallel is None
    assert not [e for e in translation.ledger if e.code.startswith(("parallel.from", "parallel.extra"))]
    assert found["category"] == "too_many_calls"  # the scenario's false, judged as the intent


def test_a_host_without_a_documented_switch_keeps_the_scenarios_setting() -> None:
    translation, found = parallel_judged("deepseek", TWO_CALLS_OPENAI, "parallel_tool_calls: false\n",
                                         {"parallel_tool_calls": True})
    assert translation.request.body["parallel_tool_calls"] is True  # sent as extra writes it
    [entry] = [e for e in translation.ledger if e.code == "parallel.extra_unread"]
    assert "DeepSeek has no parallel switch a source documents" in entry.message
    assert found["category"] == "too_many_calls"


def test_send_against_the_mock_judges_the_parallel_setting_it_received(tmp_path: Path) -> None:
    """The mock reads parallel_tool_calls from the body it received (its record), and answers with two calls."""
    path = scenario(tmp_path, "openai", {"parallel_tool_calls": True}, choice="tool_choice: required\n",
                    tail="parallel_tool_calls: false\n")
    script = Script(replies=(Step(calls=(ScriptCall("f"), ScriptCall("g"))),))
    with running_mock("openai", script=script) as mock:
        sent = run_cli(["send", str(path), "-p", "openai", "--base-url", mock.base_url, "--retries", "0", "-f", "json"])
        [line] = mock.records
    assert line["parallel_tool_calls"] is True
    document = json.loads(sent.stdout)
    assert sent.returncode == 0, sent.stderr
    assert [c["name"] for c in document["verdict"]["calls"]] == ["f", "g"]
    assert document["verdict"]["category"] == "obeyed"
    assert "parallel.from_extra" in codes(document["ledger"])


def test_probe_does_not_ask_its_parallel_question_where_extra_sends_another_setting(tmp_path: Path) -> None:
    path = scenario(tmp_path, "openai", {"parallel_tool_calls": True})
    with running_mock("openai") as mock:
        probed = run_cli(["probe", "-p", "openai", str(path), "--base-url", mock.base_url, "--retries", "0",
                          "--repeat", "1", "-f", "json"])
        received = [line["parallel_tool_calls"] for line in mock.records]
    assert probed.returncode == 0, probed.stderr
    outcomes = {q["feature"]: q for q in json.loads(probed.stdout)["questions"]}
    assert outcomes["parallel"]["result"] == "not asked"
    assert "providers.openai.extra sends its own parallel setting" in outcomes["parallel"]["evidence"]
    assert outcomes["required"]["result"] == "honored"  # judged on its choice, as asked
    assert received and set(received) == {True}  # every request went out with extra's true; no false was asked


def test_compares_parallel_cell_shows_what_extra_sends(tmp_path: Path) -> None:
    """compare's parallel column: the flag the request body carries where extra changes it (the body is the truth),
    ``extra ?`` where the host has no documented switch to read it by, the usual cell otherwise."""
    text = TOOLS + "tool_choice: required\nparallel_tool_calls: false\nproviders:\n" \
        "  openai: {extra: {parallel_tool_calls: true}}\n  deepseek: {extra: {parallel_tool_calls: true}}\n"
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    done = run_cli(["compare", str(path), "-p", "openai,deepseek,mistral", "-f", "json"])
    assert done.returncode in (0, 1), done.stderr
    document = json.loads(done.stdout)
    bodies = {p["provider"]: p["request"]["body"] for p in document["providers"]}
    assert bodies["openai"]["parallel_tool_calls"] is True and bodies["deepseek"]["parallel_tool_calls"] is True
    pretty = run_cli(["compare", str(path), "-p", "openai,deepseek,mistral"], env={**os.environ, "COLUMNS": "200"}).stdout
    rows = {line.split("│")[1].strip(): [c.strip() for c in line.split("│")[1:-1]] for line in pretty.splitlines()
            if line.startswith("│")}
    assert "extra true" in rows["openai"] and "extra ?" in rows["deepseek"]
    assert bodies["mistral"]["parallel_tool_calls"] is False and "sent" in rows["mistral"]
