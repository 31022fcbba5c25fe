"""What happens between the steps of `toolchoice run` (issue 26): loop.narrow, loop.after_call,
loop.stop.repeated_calls, and the loop's findings (loop.cannot_end, loop.no_results,
loop.tools_changed_with_thinking), the tool-result error counts and the loops that end by themselves.

The wire checks run the command against the stand-in server on 127.0.0.1 (tests/servers.py), which answers
every step with the provider's recorded reply (tests/data/responses/*/SOURCES.md), and read what each step's
request carried. The expected wire forms are written out from the SDKs' request types and checked against
them: openai-python types/chat/chat_completion_allowed_tool_choice_param.py and
chat_completion_allowed_tools_param.py ({"type": "allowed_tools", "allowed_tools": {"mode", "tools":
[{"type": "function", "function": {"name"}}]}}), types/responses/tool_choice_allowed_param.py ({"type":
"allowed_tools", "mode", "tools": [{"type": "function", "name"}]}), google-genai types.py FunctionCallingConfig
(allowed_function_names: "Only set when the Mode is ANY").
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from cli import run_cli  # noqa: E402
from sdk_types import check, missing  # noqa: E402
from servers import StandIn  # noqa: E402

from toolchoice.providers.core import loop, runner  # noqa: E402
from toolchoice.providers.core.model import RenderOptions  # noqa: E402
from toolchoice.providers.core.scenario import load_scenario_text  # noqa: E402

KEY = "sk-loop-policy-canary-0123456789"
KEY_ENVS = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY")
# The tool each provider's recorded reply calls (its .expect.json), and its arguments.
CALLED = {"openai": "get_weather", "openai-responses": "get_weather", "gemini": "weather", "anthropic": "weather"}


def toolchoice(*args: str) -> Any:
    import os

    env = {k: v for k, v in os.environ.items() if not k.endswith(("_API_KEY", "_TOKEN", "_BEDROCK"))}
    result = run_cli(args, env=env | {name: KEY for name in KEY_ENVS} | {"COLUMNS": "200"})
    assert KEY not in result.stdout + result.stderr
    return result


def scenario(tmp_path: Path, provider: str, steps: list[str], extra: str = "", max_steps: int = 2,
             results: bool = True, head: str = "") -> Path:
    called = CALLED[provider]
    names = [called, "search", "final_answer"]
    tools = "".join(f"  - {{name: {n}, description: tool {n}, parameters: {{type: object, properties: "
                    f"{{location: {{type: string}}}}}}}}\n" for n in names)
    listed = "".join(f"    - {s}\n" for s in steps)
    answers = f"  results:\n    {called}: sunny\n    search: found\n" if results else ""
    text = (f"{head}tools:\n{tools}tool_choice: auto\nmessages:\n  - {{role: user, content: weather in SF}}\n"
            f"loop:\n  max_steps: {max_steps}\n  steps:\n{listed}{answers}{extra}")
    path = tmp_path / "loop.yaml"
    path.write_text(text)
    return path


def run_on(provider: str, path: Path, *args: str, code: int = 0) -> tuple[dict, list[dict]]:
    with StandIn(provider) as server:
        result = toolchoice("run", str(path), "--provider", provider, "--base-url", server.base_url(provider),
                            "--format", "json", "--retries", "0", *args)
        requests = [r.json for r in server.requests]
    assert result.returncode == code, result.stdout + result.stderr
    return json.loads(result.stdout), requests


def codes(step: dict) -> list[str]:
    return [e["code"] for e in step["ledger"]]


def tool_names(provider: str, body: dict) -> list[str]:
    if provider == "openai":
        return [t["function"]["name"] for t in body["tools"]]
    if provider == "gemini":
        return [d["name"] for t in body["tools"] for d in t["functionDeclarations"]]
    return [t["name"] for t in body["tools"]]


# ---- loop.narrow --------------------------------------------------------------------------------

NARROW_STEPS = ["{tool_choice: required, tools: [CALLED]}", "{tool_choice: auto, tools: [CALLED, search]}"]


def narrow_steps(provider: str) -> list[str]:
    return [s.replace("CALLED", CALLED[provider]) for s in NARROW_STEPS]


@pytest.mark.skipif(missing("openai"), reason="openai-python's request types")
def test_narrow_allowed_on_openai_chat_sends_every_tool_and_allowed_tools() -> None:
    import tempfile

    from openai.types.chat import ChatCompletionAllowedToolChoiceParam

    with tempfile.TemporaryDirectory() as folder:
        path = scenario(Path(folder), "openai", narrow_steps("openai"), "  narrow: allowed\n")
        doc, requests = run_on("openai", path)
    assert [tool_names("openai", r) for r in requests] == [["get_weather", "search", "final_answer"]] * 2
    first, second = (r["tool_choice"] for r in requests)
    assert first == {"type": "allowed_tools", "allowed_tools": {
        "mode": "required", "tools": [{"type": "function", "function": {"name": "get_weather"}}]}}
    assert second == {"type": "allowed_tools", "allowed_tools": {"mode": "auto", "tools": [
        {"type": "function", "function": {"name": "get_weather"}}, {"type": "function", "function": {"name": "search"}}]}}
    assert check(first, ChatCompletionAllowedToolChoiceParam) == [] == check(second, ChatCompletionAllowedToolChoiceParam)
    steps = doc["runs"][0]["loops"][0]["steps"]
    assert [s["verdict"]["category"] for s in steps] == ["obeyed", "obeyed"]
    assert all("loop.narrowed" in codes(s) for s in steps)


def test_narrow_remove_is_the_default_and_sends_only_the_step_tools(tmp_path: Path) -> None:
    written = scenario(tmp_path, "openai", narrow_steps("openai"), "  narrow: remove\n")
    _, explicit = run_on("openai", written)
    default = scenario(tmp_path, "openai", narrow_steps("openai"))
    doc, requests = run_on("openai", default)
    assert requests == explicit  # byte for byte the same requests: remove is what a loop without the key sends
    assert [tool_names("openai", r) for r in requests] == [["get_weather"], ["get_weather", "search"]]
    assert [r["tool_choice"] for r in requests] == ["required", "auto"]
    assert not any(c.startswith("loop.narrowed") for s in doc["runs"][0]["loops"][0]["steps"] for c in codes(s))


@pytest.mark.skipif(missing("openai"), reason="openai-python's request types")
def test_narrow_allowed_on_openai_responses_uses_its_flat_allowed_form(tmp_path: Path) -> None:
    from openai.types.responses import ToolChoiceAllowedParam

    path = scenario(tmp_path, "openai-responses", narrow_steps("openai-responses"), "  narrow: allowed\n")
    _, requests = run_on("openai-responses", path)
    assert [tool_names("openai-responses", r) for r in requests] == [["get_weather", "search", "final_answer"]] * 2
    first = requests[0]["tool_choice"]
    assert first == {"type": "allowed_tools", "mode": "required", "tools": [{"type": "function", "name": "get_weather"}]}
    assert check(first, ToolChoiceAllowedParam) == []


@pytest.mark.skipif(missing("google.genai"), reason="google-genai's types")
def test_narrow_allowed_on_gemini_is_mode_any_with_allowed_function_names(tmp_path: Path) -> None:
    from google.genai import types

    path = scenario(tmp_path, "gemini", narrow_steps("gemini"), "  narrow: allowed\n")
    _, requests = run_on("gemini", path)
    assert [tool_names("gemini", r) for r in requests] == [["weather", "search", "final_answer"]] * 2
    config = requests[0]["toolConfig"]["functionCallingConfig"]
    assert config == {"mode": "ANY", "allowedFunctionNames": ["weather"]}
    parsed = types.FunctionCallingConfig.model_validate(config)
    assert parsed.mode == types.FunctionCallingConfigMode.ANY and parsed.allowed_function_names == ["weather"]


def test_narrow_allowed_with_a_named_step_sends_the_named_form_with_every_tool(tmp_path: Path) -> None:
    path = scenario(tmp_path, "openai", ["{tool_choice: get_weather, tools: [get_weather]}", "{tool_choice: auto}"],
                    "  narrow: allowed\n")
    _, requests = run_on("openai", path)
    assert tool_names("openai", requests[0]) == ["get_weather", "search", "final_answer"]
    assert requests[0]["tool_choice"] == {"type": "function", "function": {"name": "get_weather"}}
    assert requests[1]["tool_choice"] == "auto"


def test_narrow_allowed_where_there_is_no_restriction_form_removes_and_says_so(tmp_path: Path) -> None:
    """Anthropic Messages has no allowed-subset tool_choice (anthropic-sdk-python types/tool_choice_param.py:
    auto, any, tool, none): the step's tools are sent, and the ledger says so."""
    path = scenario(tmp_path, "anthropic", narrow_steps("anthropic"), "  narrow: allowed\n")
    doc, requests = run_on("anthropic", path)
    assert [tool_names("anthropic", r) for r in requests] == [["weather"], ["weather", "search"]]
    assert requests[0]["tool_choice"] == {"type": "any"}
    step1 = doc["runs"][0]["loops"][0]["steps"][0]
    emulated = [e["message"] for e in step1["ledger"] if e["code"] == "tool_choice.emulated"]
    assert emulated and "only the allowed tools are offered" in emulated[0]


def test_narrowed_says_the_choice_extra_sends_over_the_steps_restriction(tmp_path: Path) -> None:
    """providers.openai.extra writes tool_choice: the stand-in receives extra's "required" with every tool, not the
    step's allowed_tools, and the step's loop.narrowed says that, not that the subset restricts the choice; where the
    provider has no restriction form (Anthropic), the step's tools alone went out, and the note says so."""
    path = scenario(tmp_path, "openai", narrow_steps("openai"), "  narrow: allowed\nproviders:\n  openai:\n"
                                                                "    extra: {tool_choice: required}\n")
    doc, requests = run_on("openai", path)
    assert [r["tool_choice"] for r in requests] == ["required", "required"]
    assert [tool_names("openai", r) for r in requests] == [["get_weather", "search", "final_answer"]] * 2
    narrowed = [e["message"] for s in doc["runs"][0]["loops"][0]["steps"] for e in s["ledger"]
                if e["code"] == "loop.narrowed"]
    assert len(narrowed) == 2 and all("restricts the choice" not in m for m in narrowed), narrowed
    assert narrowed[0].startswith("step 1 offers get_weather (loop.narrow: allowed): every tool is sent and "
                                  "providers.openai.extra sends the tool_choice required in place of the subset's "
                                  'restriction, {"allowed":["get_weather"],"mode":"required"} (tool_choice.from_extra)')
    path = scenario(tmp_path, "anthropic", narrow_steps("anthropic"), "  narrow: allowed\nproviders:\n  anthropic:\n"
                                                                      "    extra: {tool_choice: {type: auto}}\n")
    doc, requests = run_on("anthropic", path)
    assert requests[0]["tool_choice"] == {"type": "auto"} and tool_names("anthropic", requests[0]) == ["weather"]
    [first] = [e["message"] for e in doc["runs"][0]["loops"][0]["steps"][0]["ledger"] if e["code"] == "loop.narrowed"]
    assert first.endswith("only weather is sent, and providers.anthropic.extra sends the tool_choice auto in place "
                          'of the subset\'s restriction, {"allowed":["weather"],"mode":"required"} '
                          "(tool_choice.from_extra)")
    dry = toolchoice("run", str(path), "-p", "anthropic", "--dry-run", "--format", "json")
    assert first in [e["message"] for e in json.loads(dry.stdout)["translations"][0]["ledger"]]


# ---- loop.after_call ---------------------------------------------------------------------------


def test_after_call_auto_resets_a_forcing_choice_after_a_call(tmp_path: Path) -> None:
    path = scenario(tmp_path, "openai", ["{tool_choice: required}"], "  after_call: auto\n", max_steps=3)
    doc, requests = run_on("openai", path)
    assert [r["tool_choice"] for r in requests] == ["required", "auto", "auto"]
    steps = doc["runs"][0]["loops"][0]["steps"]
    assert ["loop.choice_reset" in codes(s) for s in steps] == [False, True, True]
    assert [s["requested_tool_choice"] for s in steps] == ["required", "auto", "auto"]
    assert "loop.cannot_end" not in codes(steps[0])


def test_after_call_keep_is_the_default_and_the_loop_cannot_end(tmp_path: Path) -> None:
    path = scenario(tmp_path, "openai", ["{tool_choice: required}"], max_steps=3)
    doc, requests = run_on("openai", path)
    assert [r["tool_choice"] for r in requests] == ["required"] * 3
    [run] = doc["runs"][0]["loops"]
    assert run["ended"]["reason"] == "max_steps" and run["terminated"] is False
    [warning] = [e for e in run["steps"][0]["ledger"] if e["code"] == "loop.cannot_end"]
    assert warning["severity"] == "warning" and "from step 1" in warning["message"]
    assert "loop.after_call: auto" in warning["message"] and "stop tool" in warning["message"]


def test_after_call_auto_with_narrow_allowed_keeps_the_restriction_in_mode_auto(tmp_path: Path) -> None:
    path = scenario(tmp_path, "openai", ["{tool_choice: required, tools: [get_weather]}"],
                    "  narrow: allowed\n  after_call: auto\n")
    _, requests = run_on("openai", path)
    assert [r["tool_choice"]["allowed_tools"]["mode"] for r in requests] == ["required", "auto"]
    assert [[t["function"]["name"] for t in r["tool_choice"]["allowed_tools"]["tools"]] for r in requests] == [
        ["get_weather"], ["get_weather"]]


# ---- loop.stop.repeated_calls ----------------------------------------------------------------------


def test_repeated_calls_ends_the_loop_after_k_identical_calls(tmp_path: Path) -> None:
    path = scenario(tmp_path, "openai", ["{tool_choice: auto}"], "  stop: {repeated_calls: 3}\n", max_steps=6)
    doc, requests = run_on("openai", path)
    assert len(requests) == 3  # the stand-in answers the same call every time: the third ends the loop
    [run] = doc["runs"][0]["loops"]
    assert run["ended"] == {"reason": "repeated_call", "step": 3, "error": None}
    assert run["terminated"] is False
    assert [("loop.repeated_call" in codes(s)) for s in run["steps"]] == [False, True, True]
    assert len(run["steps"][2]["results"]) == 1  # the history stays whole: the last call got its result


def test_repeated_calls_with_a_stop_tool(tmp_path: Path) -> None:
    path = scenario(tmp_path, "openai", ["{tool_choice: required}"],
                    "  stop: {tool: final_answer, repeated_calls: 2}\n", max_steps=6)
    doc, requests = run_on("openai", path)
    assert len(requests) == 2
    assert doc["runs"][0]["loops"][0]["ended"]["reason"] == "repeated_call"


def test_without_repeated_calls_repeats_are_a_finding(tmp_path: Path) -> None:
    path = scenario(tmp_path, "openai", ["{tool_choice: auto}"], max_steps=3)
    doc, requests = run_on("openai", path)
    assert len(requests) == 3
    [run] = doc["runs"][0]["loops"]
    assert run["ended"]["reason"] == "max_steps"
    found = [e for s in run["steps"] for e in s["ledger"] if e["code"] == "loop.repeated_call"]
    assert [e["severity"] for e in found] == ["warning", "warning"]
    assert "get_weather" in found[0]["message"] and "repeated_calls" in found[0]["message"]


def test_different_arguments_are_not_a_repeat() -> None:
    bodies = [{"id": "x", "object": "chat.completion", "model": "m", "choices": [{"index": 0, "finish_reason": "tool_calls",
               "message": {"role": "assistant", "content": None, "tool_calls": [{"id": f"c{n}", "type": "function",
                           "function": {"name": "search", "arguments": json.dumps({"q": n})}}]}}]} for n in range(4)]
    count = {"n": 0}

    def answer(request: httpx.Request) -> httpx.Response:
        count["n"] += 1
        return httpx.Response(200, json=bodies[count["n"] - 1])

    text = ("tools: [{name: search, parameters: {type: object}}]\nmessages: [{role: user, content: go}]\n"
            "loop: {max_steps: 4, stop: {repeated_calls: 2}, results: {search: ok}}\n")
    [run] = run_in_process(text, answer)
    assert run.ended == "max_steps" and len(run.steps) == 4
    assert not [n for s in run.steps for n in s.notes if n.code == "loop.repeated_call"]


# ---- loop.no_results and the error count ------------------------------------------------------------


def test_tools_without_results_warn_before_the_run_and_the_errors_are_counted(tmp_path: Path) -> None:
    path = scenario(tmp_path, "openai", ["{tool_choice: auto}"], max_steps=3, results=False)
    doc, _ = run_on("openai", path)
    [run] = doc["runs"][0]["loops"]
    found = [e for e in run["steps"][0]["ledger"] if e["code"] == "loop.no_results"]
    assert [e["severity"] for e in found] == ["warning"] * 3
    assert ["'get_weather'" in found[0]["message"], "'search'" in found[1]["message"]] == [True, True]
    assert run["tool_results"] == {"total": 3, "errors": 3}
    assert doc["runs"][0]["summary"]["tool_results"] == {"total": 3, "errors": 3}
    with StandIn("openai") as server:
        pretty = toolchoice("run", str(path), "-p", "openai", "--base-url", server.base_url("openai"))
    assert "3 of 3 tool results were errors" in pretty.stdout
    assert "loop.no_results" in pretty.stdout


def test_results_from_silences_no_results(tmp_path: Path) -> None:
    path = scenario(tmp_path, "openai", ["{tool_choice: auto}"], max_steps=1, results=False)
    command = f"{sys.executable} -c \"print('ok')\""
    doc, _ = run_on("openai", path, "--results-from", command)
    [run] = doc["runs"][0]["loops"]
    assert "loop.no_results" not in codes(run["steps"][0])
    assert run["tool_results"] == {"total": 1, "errors": 0}


def test_no_results_names_the_command_in_both_words_and_each_word_is_real() -> None:
    """The ledger (read by whoever runs the loop) says how to answer every call from the command line and from
    Python: the option is run's, and its argument LoopOptions' own field (docs/python.md maps one to the other)."""
    import dataclasses

    from toolchoice.cli.app import _command
    from toolchoice.providers.core.loop_lint import no_results

    tools = "".join(f"  - {{name: t{n}, parameters: {{type: object}}}}\n" for n in range(4))
    loaded = load_scenario_text(f"tools:\n{tools}tool_choice: auto\nmessages: [{{role: user, content: hi}}]\n", "s.yaml")
    [entry] = no_results(loaded, None)
    assert "(and no results command)" in entry.message
    assert entry.message.endswith("answer every call with a command (--results-from COMMAND; from Python, "
                                  "LoopOptions(results_from=...))")
    [option] = [p for p in _command(None).commands["run"].params if "--results-from" in p.opts]
    assert option.name == "results_from" and option.name in {f.name for f in dataclasses.fields(loop.LoopOptions)}
    assert no_results(loaded, "cat") == []


def test_a_result_the_command_could_not_give_names_no_option(monkeypatch: pytest.MonkeyPatch) -> None:
    """The model reads each tool result: past the command's time or output bound, the error it gets says what
    happened in words that hold for a Python caller as for the command line (no --results-from)."""
    import asyncio

    from toolchoice.providers.core.loop_results import ToolResults
    from toolchoice.providers.core.model import HistoryCall, LoopSpec, ToolCall

    call, history_call = ToolCall(id="c1", name="f", arguments={}), HistoryCall("c1", "f", {})
    monkeypatch.setenv("TOOLCHOICE_LIMIT_RESULT_BYTES", "8")
    chatty = ToolResults(LoopSpec(), "printf 0123456789abcdef")
    said = asyncio.run(chatty.answer(call, history_call, ("f",), {}))
    assert said.is_error and said.content.startswith("error: the command giving tool results printed more than "
                                                     "8 bytes (limit result_bytes) for 'f'; raise it with "
                                                     "TOOLCHOICE_LIMIT_RESULT_BYTES=N")
    slow = ToolResults(LoopSpec(), "exec sleep 30", timeout=0.1)
    said = asyncio.run(slow.answer(call, history_call, ("f",), {}))
    assert said.is_error and said.content == "error: the command giving tool results took longer than 0.1 s for 'f'"


# ---- loop.cannot_end where the loop is shown ----------------------------------------------------------


def dry_codes(path: Path, provider: str = "openai", *args: str) -> list[str]:
    result = toolchoice("run", str(path), "-p", provider, "--dry-run", "--format", "json", *args)
    assert result.returncode == 0, result.stderr
    return [e["code"] for t in json.loads(result.stdout)["translations"] for e in t["ledger"]]


def test_cannot_end_in_dry_run_render_and_compare(tmp_path: Path) -> None:
    path = scenario(tmp_path, "openai", ["{tool_choice: get_weather, tools: [get_weather]}", "{tool_choice: required}"],
                    max_steps=6)
    assert "loop.cannot_end" in dry_codes(path)
    rendered = toolchoice("render", str(path), "-p", "openai", "--format", "json")
    assert "loop.cannot_end" in rendered.stdout
    compared = toolchoice("compare", str(path), "-p", "openai,anthropic", "--format", "json")
    assert compared.stdout.count('"loop.cannot_end"') == 2
    assert "loop.no_results" not in rendered.stdout  # a run's warning only


def test_a_one_step_loop_is_no_loop_that_cannot_end(tmp_path: Path) -> None:
    """max_steps: 1 ends at max_steps by design: no loop.cannot_end (a new user got it for a one-step run)."""
    assert "loop.cannot_end" in dry_codes(scenario(tmp_path, "openai", ["{tool_choice: required}"], max_steps=2))
    assert "loop.cannot_end" not in dry_codes(scenario(tmp_path, "openai", ["{tool_choice: required}"], max_steps=1))


@pytest.mark.parametrize("change", [
    "  stop: {tool: final_answer}\n",  # a stop tool offered where every step forces a call
    "  after_call: auto\n",
])
def test_a_way_out_silences_cannot_end(tmp_path: Path, change: str) -> None:
    path = scenario(tmp_path, "openai", ["{tool_choice: required}"], change, max_steps=6)
    assert "loop.cannot_end" not in dry_codes(path)


def test_a_stop_tool_the_forcing_steps_do_not_offer_still_cannot_end(tmp_path: Path) -> None:
    path = scenario(tmp_path, "openai", ["{tool_choice: required, tools: [get_weather, search]}"],
                    "  stop: {tool: final_answer}\n", max_steps=6)
    assert "loop.cannot_end" in dry_codes(path)


def test_the_shipped_planner_loop_has_no_findings() -> None:
    root = Path(__file__).resolve().parents[1]
    found = dry_codes(root / "configs" / "planner-loop.yaml", "openai")
    assert not [c for c in found if c.startswith("loop.")]
    required = (root / "configs" / "planner-loop.yaml").read_text().replace(
        "- {tool_choice: auto}                                      # step 2", "- {tool_choice: required}  # step 2")
    assert "{tool_choice: required}" in required  # the trap its comment describes


# ---- loop.tools_changed_with_thinking -----------------------------------------------------------------


def thinking_scenario(tmp_path: Path, model: str, steps: list[str], extra: str = "") -> Path:
    return scenario(tmp_path, "anthropic", steps, extra, max_steps=3,
                    head=f"providers:\n  anthropic: {{model: {model}}}\n")


def test_changing_tools_on_a_prefix_checking_model_warns(tmp_path: Path) -> None:
    """platform.claude.com/docs/en/build-with-claude/preserved-thinking/prefix-checks lists the models that run
    the check (claude-fable-5-1/5-2, claude-mythos-5-1/5-2, claude-opus/sonnet/haiku-5-5)."""
    steps = ["{tool_choice: auto, tools: [weather]}", "{tool_choice: auto}"]
    path = thinking_scenario(tmp_path, "claude-opus-5-5", steps)
    result = toolchoice("run", str(path), "-p", "anthropic", "--dry-run", "--format", "json")
    [entry] = [e for t in json.loads(result.stdout)["translations"] for e in t["ledger"]
               if e["code"] == "loop.tools_changed_with_thinking"]
    assert entry["severity"] == "warning" and "step 2" in entry["message"]
    assert "claude-preserved-thinking" in entry["message"] and "prefix-checks" in entry["message"]
    for model in ("claude-opus-5", "claude-sonnet-4-5"):  # not in the page's list: no prefix check
        other = thinking_scenario(tmp_path, model, steps)
        assert "loop.tools_changed_with_thinking" not in dry_codes(other, "anthropic")


def test_same_tools_every_step_do_not_warn(tmp_path: Path) -> None:
    path = thinking_scenario(tmp_path, "claude-fable-5-1", ["{tool_choice: auto}", "{tool_choice: none}"])
    assert "loop.tools_changed_with_thinking" not in dry_codes(path, "anthropic")


def test_changing_tools_in_a_run_warns_at_the_step(tmp_path: Path) -> None:
    path = thinking_scenario(tmp_path, "claude-sonnet-5-5", ["{tool_choice: auto, tools: [weather]}",
                                                              "{tool_choice: auto}"])
    doc, requests = run_on("anthropic", path)
    steps = doc["runs"][0]["loops"][0]["steps"]
    assert ["loop.tools_changed_with_thinking" in codes(s) for s in steps] == [False, True, False]
    assert [tool_names("anthropic", r) for r in requests] == [["weather"], ["weather", "search", "final_answer"],
                                                              ["weather", "search", "final_answer"]]


def test_a_thinking_switch_inside_the_turn_warns(tmp_path: Path) -> None:
    """A model that thinks by default is sent thinking disabled for a forcing choice (anthropic.py
    thinking.disabled_for_choice); the next, auto step thinks again: one turn, two settings
    (platform.claude.com/docs/build-with-claude/thinking-tool-workflows). Since adaptive thinking takes a forced
    choice on the current models (issue 25), the scenario states a model that refuses it, as a user's rules can."""
    path = scenario(tmp_path, "anthropic", ["{tool_choice: weather}", "{tool_choice: auto}"], "", max_steps=3,
                    head="providers:\n  anthropic: {model: claude-opus-5, rules: {forced_choice_with_adaptive: false}}\n")
    result = toolchoice("run", str(path), "-p", "anthropic", "--dry-run", "--format", "json")
    ledger = [e for t in json.loads(result.stdout)["translations"] for e in t["ledger"]]
    assert "thinking.disabled_for_choice" in [e["code"] for e in ledger]
    [entry] = [e for e in ledger if e["code"] == "loop.tools_changed_with_thinking"]
    assert "thinking" in entry["message"] and "claude-thinking-per-turn" in entry["message"]


# ---- run --repeat: loops that end by themselves -------------------------------------------------------


def run_in_process(text: str, answer: Any, repeat: int = 1) -> list[loop.LoopRun]:
    scenario = load_scenario_text(text, "loop.yaml")
    runs = loop.new_runs(["openai"], repeat)
    settings = runner.SendSettings(retries=0, concurrency=1, transport=httpx.MockTransport(answer))
    return loop.run_loops(scenario, runs, settings, loop.LoopOptions(RenderOptions()), {}, None)


@pytest.fixture(autouse=True)
def keys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)


def test_repeat_counts_loops_that_end_by_themselves_with_a_wilson_interval() -> None:
    calls = {"n": 0}

    def answer(request: httpx.Request) -> httpx.Response:
        calls["n"] += 1
        body = json.loads(request.content)
        tools_seen = sum(1 for m in body["messages"] if m["role"] == "tool")
        message: dict[str, Any] = {"role": "assistant", "content": "done"}
        if tools_seen < (1 if calls["n"] <= 6 else 5):  # three loops end at step 2; one keeps calling
            message = {"role": "assistant", "content": None, "tool_calls": [{
                "id": f"c{calls['n']}", "type": "function", "function": {"name": "search", "arguments": "{}"}}]}
        return httpx.Response(200, json={"id": "x", "object": "chat.completion", "model": "m", "choices": [
            {"index": 0, "message": message, "finish_reason": "stop"}]})

    text = ("tools: [{name: search, parameters: {type: object}}]\nmessages: [{role: user, content: go}]\n"
            "loop: {max_steps: 3, results: {search: ok}}\n")
    runs = run_in_process(text, answer, repeat=4)
    data = loop.summary(runs)
    assert sorted(r.ended for r in runs) == ["max_steps", "no_tool_call", "no_tool_call", "no_tool_call"]
    # Wilson 95% for 3 of 4: 0.3006–0.9544 (Wilson 1927; any statistics table)
    assert data["terminated"]["count"] == 3 and data["terminated"]["loops"] == 4
    assert data["terminated"]["low"] == pytest.approx(0.3006, abs=1e-3)
    assert data["terminated"]["high"] == pytest.approx(0.9544, abs=1e-3)
    assert data["steps_to_finish"] == {"p50": 2, "p95": 2, "n": 3}
    assert data["ended"]["repeated_call"]["count"] == 0


def test_repeat_prints_how_many_loops_ended_by_themselves(tmp_path: Path) -> None:
    path = scenario(tmp_path, "openai", ["{tool_choice: auto}"], "  stop: {repeated_calls: 2}\n", max_steps=4)
    with StandIn("openai") as server:
        result = toolchoice("run", str(path), "-p", "openai", "--base-url", server.base_url("openai"),
                            "--repeat", "3", "--retries", "0")
    assert result.returncode == 0, result.stderr
    assert "ended by itself  0 of 3 loops" in result.stdout
    assert "repeated_call" in result.stdout


# ---- bad values of the new keys ---------------------------------------------------------------------


@pytest.mark.parametrize("change, message", [
    ("  narrow: subset\n", "loop.narrow must be remove or allowed"),
    ("  after_call: reset\n", "loop.after_call must be keep or auto"),
    ("  after_call: true\n", "loop.after_call must be keep or auto"),
    ("  stop: {repeated_calls: 1}\n", "loop.stop.repeated_calls must be a whole number from 2"),
    ("  stop: {repeated_calls: two}\n", "loop.stop.repeated_calls must be a whole number from 2"),
    ("  stop: {repeated_calls: true}\n", "loop.stop.repeated_calls must be a whole number from 2"),
    ("  stop: {repeated_calls: 2, when: sometimes}\n", "loop.stop.when must be no_tool_call"),
])
def test_bad_values_of_the_new_keys_are_one_line_with_file_and_line(tmp_path: Path, change: str,
                                                                     message: str) -> None:
    path = scenario(tmp_path, "openai", ["{tool_choice: auto}"], change)
    line = 1 + path.read_text().splitlines().index(change.rstrip("\n"))
    result = toolchoice("run", str(path), "-p", "openai", "--dry-run")
    assert result.returncode == 2
    [out] = result.stderr.strip().splitlines()
    assert f"{path}:{line}:" in out and message in out, out
    assert "Traceback" not in result.stderr


def test_the_scenario_schema_takes_the_new_keys_and_refuses_bad_values(tmp_path: Path) -> None:
    import jsonschema
    import yaml

    schema = json.loads(toolchoice("schema", "scenario").stdout)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)  # once (jsonschema.validate checked it again for each document)
    validator = cls(schema)
    good = scenario(tmp_path, "openai", ["{tool_choice: auto}"],
                    "  narrow: allowed\n  after_call: auto\n  stop: {tool: final_answer, repeated_calls: 3}\n")
    validator.validate(yaml.safe_load(good.read_text()))
    for change in ("  narrow: subset\n", "  after_call: reset\n", "  stop: {repeated_calls: 1}\n"):
        bad = scenario(tmp_path, "openai", ["{tool_choice: auto}"], change)
        with pytest.raises(jsonschema.ValidationError):
            validator.validate(yaml.safe_load(bad.read_text()))


# The page's own list (platform.claude.com/docs/en/build-with-claude/preserved-thinking/prefix-checks,
# featureMetadata.supportedModels, read 2026-11-26), and models it does not list.
PREFIX_CHECKED = ("claude-fable-5-2", "claude-mythos-5-2", "claude-fable-5-1", "claude-mythos-5-1", "claude-opus-5-5",
                  "claude-sonnet-5-5", "claude-haiku-5-5")
NOT_LISTED = ("claude-fable-5", "claude-mythos-5", "claude-opus-5", "claude-sonnet-5", "claude-sonnet-4-5",
              "claude-opus-4-8", "claude-fable-5-20261001", "claude-opus-5-50")


@pytest.mark.parametrize("model", PREFIX_CHECKED + NOT_LISTED)
def test_the_prefix_check_rule_matches_the_pages_model_list(model: str) -> None:
    from toolchoice.providers.core.model_rules import resolve

    for provider, model_id in (("anthropic", model), ("bedrock", f"us.anthropic.{model}-v1:0")):
        fact = resolve(provider, model_id).get("thinking_prefix_check")
        assert (fact is not None and fact.value is True) == (model in PREFIX_CHECKED), (provider, model_id)


def test_render_says_when_step_one_of_a_loop_is_not_the_top_level_request() -> None:
    """configs/planner-loop.yaml: top-level tool_choice auto, loop.steps forcing plan_tool_call with only it at step
    1. render showed auto with no word of it (a new user compared and read auto); the ledger now names what `run`
    sends at step 1, which `run --dry-run` shows: the two must agree."""
    root = Path(__file__).resolve().parent.parent
    shown = json.loads(run_cli(["render", "configs/planner-loop.yaml", "-p", "anthropic", "-f", "json"], cwd=root).stdout)
    (entry,) = [e for e in shown["ledger"] if e["code"] == "loop.step_one_differs"]
    assert entry["severity"] == "info" and "tool_choice auto" in entry["message"]
    assert 'tool_choice {"tool":"plan_tool_call"} and offers plan_tool_call' in entry["message"]
    dry = json.loads(run_cli(["run", "configs/planner-loop.yaml", "-p", "anthropic", "--dry-run", "-f", "json"],
                             cwd=root).stdout)
    body = dry["translations"][0]["request"]["body"]
    assert body["tool_choice"]["type"] == "tool" and body["tool_choice"]["name"] == "plan_tool_call"
    assert [t["name"] for t in body["tools"]] == ["plan_tool_call"]
    plain = json.loads(run_cli(["render", "configs/weather.yaml", "-p", "anthropic", "-f", "json"], cwd=root).stdout)
    assert "loop.step_one_differs" not in [e["code"] for e in plain["ledger"]]


def test_dry_run_later_steps_fit_the_terminal() -> None:
    """The "later steps" lines of `run --dry-run` (185 characters for a planner loop) were printed unwrapped at 60
    and 80 columns (a trial): each folds at the terminal's width, under its first line."""
    root = Path(__file__).resolve().parent.parent
    for columns in ("60", "80"):
        out = run_cli(["run", "configs/planner-loop.yaml", "-p", "openai", "--dry-run"], cwd=root,
                      env={"COLUMNS": columns}).stdout
        later = out[out.index("later steps depend on the replies:"):].splitlines()
        assert len(later) > 3 and all(len(line) <= int(columns) for line in later), later
        assert "step 2 (and every later step)" in later[1]
