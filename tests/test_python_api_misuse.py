"""The Python API as an agent builder uses it from their own tests (trial 7e, docs/python.md "Wrong arguments",
"Scenarios as dicts", "From async code and threads"): wrong types and None get one toolchoice error naming the
parameter (also a TypeError), never an AttributeError from inside; a scenario dict's bad value names its place;
the jobs run from inside a running event loop (as in pytest-asyncio or Jupyter) and from several threads at
once; Ctrl-C there keeps what finished; keys are in no record's repr or str. All in-process, through
``httpx.MockTransport``."""

from __future__ import annotations

import _thread
import asyncio
import json
import os
import threading
import time
from pathlib import Path
from typing import Any, Callable

import httpx
import pytest

from toolchoice.providers import (RenderOptions, ToolchoiceError, WrongArgument, load_scenario, load_scenario_dict,
                                  load_scenario_text, parse_reply, translate)
from toolchoice.providers.core import jobs, loop, runner
from toolchoice.providers.core.verdict import verdict

KEY = "sk-misuse-test-0123456789abcdefKEY"
SCENARIO = """\
tools:
  - name: get_weather
    parameters: {type: object, properties: {city: {type: string}}, required: [city]}
  - name: get_time
    parameters: {type: object, properties: {zone: {type: string}}}
tool_choice: {tool: get_weather}
messages:
  - {role: user, content: "Weather in Paris?"}
loop:
  max_steps: 2
  after_call: auto
  results: {get_weather: "18 C", get_time: "noon"}
"""


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)


def _forced_name(body: dict[str, Any]) -> str:
    choice = body.get("tool_choice")
    return choice["function"]["name"] if isinstance(choice, dict) else body["tools"][0]["function"]["name"]


def _echo_choice(request: httpx.Request) -> httpx.Response:
    """Chat Completions' reply (the shape in docs/python.md) calling the tool the request forces; text once a
    tool result is in the history, so that a loop ends."""
    body = json.loads(request.content)
    if any(m.get("role") == "tool" for m in body["messages"]):
        message: dict[str, Any] = {"role": "assistant", "content": "done"}
    else:
        message = {"role": "assistant", "content": None, "tool_calls": [{"id": "call_1", "type": "function", "function": {
            "name": _forced_name(body), "arguments": '{"city": "Paris", "zone": "UTC"}'}}]}
    return httpx.Response(200, json={"id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "gpt-4o",
                                     "choices": [{"index": 0, "finish_reason": "stop", "message": message}]})


SETTINGS = runner.SendSettings(transport=httpx.MockTransport(_echo_choice))


@pytest.fixture(scope="module")
def scenario() -> Any:
    return load_scenario_text(SCENARIO)


# ---- wrong types: one error naming the parameter ---------------------------------------------------------------


def _cases(sc: Any) -> list[tuple[str, Callable[[], Any], str]]:
    [tr] = jobs.translations(sc, ["openai"])
    return [
        ("load_scenario_text(None)", lambda: load_scenario_text(None), "text: give"),  # type: ignore[arg-type]
        ("load_scenario_text(bytes)", lambda: load_scenario_text(b"tools: []"), "text: give"),  # type: ignore[arg-type]
        ("load_scenario_text(dict)", lambda: load_scenario_text({"tools": []}), "text: give"),  # type: ignore[arg-type]
        ("load_scenario(None)", lambda: load_scenario(None), "path: give"),  # type: ignore[arg-type]
        ("load_scenario_dict(list)", lambda: load_scenario_dict([]), "scenario: give a mapping"),  # type: ignore[arg-type]
        ("render(None)", lambda: jobs.render(None, ["openai"]), "scenario: give a Scenario"),
        ("render(dict)", lambda: jobs.render({"tools": []}, ["openai"]), "scenario: give a Scenario"),
        ("render([None])", lambda: jobs.render(sc, [None]), "providers[0]: give a provider id"),
        ("render(5)", lambda: jobs.render(sc, 5), "providers: give provider ids"),
        ("render(options=dict)", lambda: jobs.render(sc, ["openai"], {"strict": True}), "options: give a RenderOptions"),
        ("RenderOptions(model=5)", lambda: jobs.render(sc, ["openai"], RenderOptions(model=5)), "options.model"),
        ("RenderOptions(strict='yes')", lambda: jobs.render(sc, ["openai"], RenderOptions(strict="yes")),
         "options.strict"),
        ("RenderOptions(allow_env='HOME')", lambda: jobs.render(sc, ["openai"], RenderOptions(allow_env="HOME")),
         "options.allow_env"),
        ("models=list", lambda: jobs.render(sc, ["openai"], models=["gpt-4o"]), "models: give a mapping"),
        ("models={'openai': 5}", lambda: jobs.render(sc, ["openai"], models={"openai": 5}), "models['openai']"),
        ("translate(None, ...)", lambda: translate(None, sc), "provider: give a provider id"),
        ("translate(..., None)", lambda: translate("openai", None), "scenario: give a Scenario"),
        ("translate(options=None)", lambda: translate("openai", sc, None), None),  # None: the defaults
        ("send(translation=None)", lambda: jobs.send(sc, None), "translation: give a Translation"),
        ("send(translation='openai')", lambda: jobs.send(sc, "openai"), "translation: give a Translation"),
        ("send(settings=dict)", lambda: jobs.send(sc, tr, settings={"timeout": 5}), "settings: give a runner.SendSettings"),
        ("send(settings.transport=str)", lambda: jobs.send(sc, tr, settings=runner.SendSettings(transport="x")),
         "settings.transport"),
        ("send(save=5)", lambda: jobs.send(sc, tr, save=5, settings=SETTINGS), "save: give a folder"),
        ("compare_send(None)", lambda: jobs.compare_send(sc, None), "translations: give a list"),
        ("compare_send([None])", lambda: jobs.compare_send(sc, [None]), "translations[0]: give a Translation"),
        ("compare_send([])", lambda: jobs.compare_send(sc, []), "translations: an empty list names no translation"),
        ("run(providers=5)", lambda: jobs.run(sc, 5), "providers: give provider ids"),
        ("run(options=dict)", lambda: jobs.run(sc, ["openai"], {"max_steps": 2}), "options: give a loop.LoopOptions"),
        ("run(LoopOptions(render=None))", lambda: jobs.run(sc, ["openai"], loop.LoopOptions(render=None)),
         "options.render"),
        ("probe(None)", lambda: jobs.probe(None), "provider: give a provider id"),
        ("probe(scenario=dict)", lambda: jobs.probe("openai", {"tools": []}), "scenario: give a Scenario"),
        ("parse_reply(None, body)", lambda: parse_reply(None, {}), "provider: give a provider id"),
        ("verdict(sc, None)", lambda: verdict(sc, None), "reply: give a Reply"),
        ("verdict(None, reply)", lambda: verdict(None, parse_reply("openai", _echo_choice(httpx.Request(
            "POST", "http://x", json={"messages": [], "tools": [{"function": {"name": "a"}}]})).json())),
         "scenario: give a Scenario"),
    ]


def test_wrong_types_raise_one_error_naming_the_parameter(scenario: Any) -> None:
    problems = []
    for label, call, words in _cases(scenario):
        try:
            call()
        except WrongArgument as exc:
            if words is None or words not in str(exc) or not isinstance(exc, TypeError) or KEY in str(exc):
                problems.append(f"{label}: {exc}")
        except ToolchoiceError as exc:
            if words is None or words not in str(exc):
                problems.append(f"{label}: {type(exc).__name__}: {exc}")
        except Exception as exc:  # noqa: BLE001 - what the test is about
            problems.append(f"{label}: bare {type(exc).__name__}: {exc}")
        else:
            if words is not None:
                problems.append(f"{label}: no error")
    assert problems == []


def test_one_provider_id_as_a_str_and_a_save_folder_as_a_str(scenario: Any, tmp_path: Path) -> None:
    """Where the intent is plain it is taken: "openai" is ["openai"] (it was read letter by letter: unknown
    provider 'o'), and save="folder" is a folder (it was an AttributeError)."""
    [one] = jobs.render(scenario, "openai")
    assert one.provider == "openai"
    [tr] = jobs.translations(scenario, "openai")
    result = jobs.send(scenario, tr, settings=SETTINGS, save=str(tmp_path / "out"))
    assert result.code == 0 and sorted(p.name for p in (tmp_path / "out").iterdir())
    ran = jobs.run(scenario, "openai", settings=SETTINGS)
    assert [r.provider for r in ran.runs] == ["openai"] and ran.code == 0


def test_an_empty_provider_list_is_refused_by_every_job_and_left_out_is_the_command_lines_default(scenario: Any) -> None:
    """`jobs.render(scenario, [])` rendered for every provider while `jobs.run(scenario, [])` raised: an empty list,
    most likely a filter that kept nothing, is one ToolchoiceError naming the argument from every job that takes a
    list; left out (None), a job takes the scenario's providers, else every one, as the command line without -p."""
    [tr] = jobs.translations(scenario, "openai")
    for label, call, name in (("render", lambda: jobs.render(scenario, []), "providers"),
                              ("translations", lambda: jobs.translations(scenario, ()), "providers"),
                              ("render(set())", lambda: jobs.render(scenario, set()), "providers"),
                              ("run", lambda: jobs.run(scenario, [], settings=SETTINGS), "providers"),
                              ("compare_send", lambda: jobs.compare_send(scenario, [], settings=SETTINGS),
                               "translations")):
        with pytest.raises(ToolchoiceError) as caught:
            call()
        assert str(caught.value).startswith(f"{name}: an empty list names no "), (label, str(caught.value))
        assert not isinstance(caught.value, WrongArgument), label  # the right type, a value that names nothing
    with pytest.raises(WrongArgument, match=r"^provider: give a provider id \(str\), not list"):
        jobs.probe([], settings=SETTINGS)  # type: ignore[arg-type]  # probe asks one provider: a list is no id
    assert jobs.send(scenario, tr, settings=SETTINGS).code == 0  # one translation: no list to leave empty
    # left out: what the command line picks without -p (its JSON lists the providers it rendered)
    from cli import run_cli

    weather = str(Path(__file__).resolve().parents[1] / "configs" / "weather.yaml")
    for path, loaded in ((weather, load_scenario(weather)), (None, scenario)):
        args = ["render", path or "-", "-f", "json"]
        shown = run_cli(args, input=SCENARIO if path is None else None)
        data = json.loads(shown.stdout)
        listed = [t["provider"] for t in (data if isinstance(data, list) else data["translations"])]
        assert [t.provider for t in jobs.render(loaded)] == listed, path
    ran = jobs.run(load_scenario_dict({**_as_dict(), "providers": {"openai": {}}}), settings=SETTINGS)
    assert [r.provider for r in ran.runs] == ["openai"] and ran.code == 0


# ---- scenarios as dicts ---------------------------------------------------------------------------------------


def _as_dict() -> dict[str, Any]:
    return {"tools": [{"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                                                            "required": ["city"]}},
                      {"name": "get_time", "parameters": {"type": "object", "properties": {"zone": {"type": "string"}}}}],
            "tool_choice": {"tool": "get_weather"},
            "messages": [{"role": "user", "content": "Weather in Paris?"}],
            "loop": {"max_steps": 2, "after_call": "auto", "results": {"get_weather": "18 C", "get_time": "noon"}}}


def test_a_scenario_dict_reads_as_the_same_yaml(scenario: Any) -> None:
    from_dict = load_scenario_dict(_as_dict())
    assert from_dict._replace(path="") == scenario._replace(path="")


@pytest.mark.parametrize("change, message", [
    (lambda d: d["tools"][1].update(name=5),
     "scenario['tools'][1]['name']: a tool's name must be a non-empty string, not int 5"),
    (lambda d: d.update(tool_choice={"tool": "nope"}), "scenario['tool_choice']: tool_choice names 'nope'"),
    (lambda d: d["messages"][0].update(content=None), "scenario['messages'][0]['content']: content must be a string"),
    (lambda d: d["loop"].update(max_steps=0), "scenario['loop']['max_steps']: loop.max_steps must be a whole number"),
    (lambda d: d.update(extra=1), "scenario['extra']: unknown key 'extra' in the scenario"),
    (lambda d: d["tools"][0]["parameters"].update(required="city"),
     "scenario['tools'][0]['parameters']['required']: tool 'get_weather': its parameters are not a valid JSON Schema"),
])
def test_a_bad_value_in_a_scenario_dict_names_its_place(change: Callable[[dict[str, Any]], Any], message: str) -> None:
    data = _as_dict()
    change(data)
    with pytest.raises(ToolchoiceError) as caught:
        load_scenario_dict(data)
    assert str(caught.value).startswith(message), str(caught.value)


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(tools={"a", "b"}), "scenario['tools']: give JSON data"),
    (lambda d: d.update(system=b"bytes"), "scenario['system']: give JSON data"),
    (lambda d: d["tools"][0]["parameters"]["properties"]["city"].update(maxLength=float("nan")),
     "scenario['tools'][0]['parameters']['properties']['city']['maxLength']: give JSON data"),
    (lambda d: d.update({5: "x"}), "scenario: keys must be str"),
    (lambda d: d["loop"].update(loop=d["loop"]), "nests more than 200 levels deep (or holds itself)"),
])
def test_what_json_cannot_hold_is_a_wrong_argument(change: Callable[[dict[str, Any]], Any], message: str) -> None:
    data = _as_dict()
    change(data)
    with pytest.raises(WrongArgument) as caught:
        load_scenario_dict(data)
    assert message in str(caught.value) and len(str(caught.value)) < 400


# ---- inside a running event loop, from threads, Ctrl-C --------------------------------------------------------


def test_every_job_runs_inside_a_running_event_loop(scenario: Any) -> None:
    """As in a pytest-asyncio test or a Jupyter cell: each job called from a coroutine (asyncio.run() cannot be
    called from a running event loop, before)."""
    async def inside() -> list[int]:
        [tr] = jobs.translations(scenario, ["openai"])
        sent = jobs.send(scenario, tr, settings=SETTINGS)
        compared = jobs.compare_send(scenario, [tr], settings=SETTINGS)
        ran = jobs.run(scenario, ["openai"], settings=SETTINGS)
        probed = jobs.probe("openai", repeat=1, settings=SETTINGS)
        assert probed["questions"] and ran.runs[0].ended
        return [sent.code, compared.code, ran.code, sent.samples[0].verdict["category"] == "obeyed"]

    assert asyncio.run(inside()) == [0, 0, 0, True]


def test_ctrl_c_inside_a_running_event_loop_keeps_what_finished(scenario: Any) -> None:
    answered = []

    async def slow_after_three(request: httpx.Request) -> httpx.Response:
        answered.append(1)
        if len(answered) > 3:
            await asyncio.sleep(30)
        return _echo_choice(request)

    settings = runner.SendSettings(transport=httpx.MockTransport(slow_after_three), concurrency=1)

    async def inside() -> Any:
        [tr] = jobs.translations(scenario, ["openai"])
        return jobs.send(scenario, tr, repeat=10, settings=settings)

    timer = threading.Timer(1.0, _thread.interrupt_main)
    started = time.monotonic()
    timer.start()
    try:
        result = asyncio.run(inside())
    finally:
        timer.cancel()
    assert time.monotonic() - started < 10
    assert result.code == 130 and result.interrupted is not None
    assert (result.interrupted.done, result.interrupted.total) == (3, 10)


def test_jobs_from_several_threads_at_once_keep_their_own_results(tmp_path: Path) -> None:
    """Four threads, each forcing its own tool, send and run at once: every sample judges the call to its own
    tool (the stand-in answers the tool each request forces), so nothing crosses between threads."""
    scenarios = {name: load_scenario_text(SCENARIO.replace("tool_choice: {tool: get_weather}",
                                                           f"tool_choice: {{tool: {name}}}"))
                 for name in ("get_weather", "get_time")}
    problems: list[str] = []

    def work(name: str) -> None:
        try:
            sc = scenarios[name]
            [tr] = jobs.translations(sc, ["openai"])
            for _ in range(3):
                samples: list[Any] = []
                sent = jobs.send(sc, tr, repeat=3, settings=SETTINGS, on_sample=samples.append)
                names = {c.name for s in samples for c in s.reply.tool_calls}
                if sent.code != 0 or len(samples) != 3 or names != {name}:
                    problems.append(f"send {name}: {sent.code} {names}")
                ran = jobs.run(sc, ["openai"], settings=SETTINGS)
                first = ran.runs[0].steps[0]
                if ran.code != 0 or [c.name for c in first.reply.tool_calls] != [name]:
                    problems.append(f"run {name}: {ran.code}")
        except Exception as exc:  # noqa: BLE001 - reported by the test
            problems.append(f"{name}: {type(exc).__name__}: {exc}")

    threads = [threading.Thread(target=work, args=(name,)) for name in ("get_weather", "get_time") * 2]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert problems == [] and not any(thread.is_alive() for thread in threads)


# ---- keys -----------------------------------------------------------------------------------------------------


def test_no_returned_record_holds_the_key_in_its_repr_or_str(scenario: Any) -> None:
    [tr] = jobs.translations(scenario, ["openai"])
    sent = jobs.send(scenario, tr, settings=SETTINGS)
    many = jobs.send(scenario, tr, repeat=3, settings=SETTINGS)
    compared = jobs.compare_send(scenario, [tr], settings=SETTINGS)
    ran = jobs.run(scenario, ["openai"], settings=SETTINGS)
    probed = jobs.probe("openai", repeat=1, settings=SETTINGS)
    records = [tr, jobs.render(scenario, ["openai"]), sent, sent.samples, sent.samples[0].reply, sent.document(),
               many.document(), many.collected.results, compared.jobs, ran.runs, ran.runs[0].steps, probed]
    assert os.environ["OPENAI_API_KEY"] == KEY
    for record in records:
        assert KEY not in repr(record) and KEY not in str(record), type(record).__name__
