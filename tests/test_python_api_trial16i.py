"""A Python user's trial of the library (trial 16i, docs/python.md): the dialects (``dialects.apply``) and
``toolchoice trace`` as library calls (``saved_request.import_saved``, ``trace_scenario.import_trace``) raise
``ToolchoiceError`` in a Python caller's words (``dialect``, ``settings['drop_params']``, ``sample=1``, ``the
provider argument``), never a ``KeyError`` or an ``AttributeError`` from inside, while the command line says its
options (``--dialect``, ``--drop-params``, ``--sample``, ``-p``) from the same record, byte for byte as before; a
path as a ``str`` is taken; the ``saved.key_env`` note names ``RenderOptions(allow_env=...)`` beside
``--allow-env``, and doing as it says renders; and library calls print nothing and leave the process's global state
(environment, working folder, logging, signal handlers, rich's globals) as they found it."""

from __future__ import annotations

import json
import logging
import os
import signal
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from toolchoice.providers import (LoopOptions, RenderOptions, ToolchoiceError, WrongArgument, load_scenario_dict,
                                  load_scenario_text, running_mock)
from toolchoice.providers.core import dialects, jobs, runner, saved_request, trace_scenario
from toolchoice.cli.exits import in_command_words

from cli import run_cli

KEY = "sk-test-trial16i-0123456789abcdef"
DATA: dict[str, Any] = {
    "tools": [{"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                                                      "required": ["city"]}}],
    "tool_choice": {"tool": "get_weather"}, "messages": [{"role": "user", "content": "Weather in Paris?"}]}
SCENARIO = load_scenario_dict(DATA)


NAMES = ", ".join(dialects.DIALECTS)  # every dialect (langchain, litellm, ...)


@pytest.mark.parametrize("name, settings, python, command_line", [
    ("langchian", None, f"dialect 'langchian': not a dialect (one of {NAMES})",
     f"--dialect 'langchian': not a dialect (one of {NAMES})"),
    ("langchain", {"drop_params": True},
     "settings['drop_params'] is a setting of dialect litellm (add dialect litellm, or drop settings['drop_params'])",
     "--drop-params is a setting of --dialect litellm (add --dialect litellm, or drop --drop-params)"),
    ("vercel", {"active_tools": ["get_time"]},
     "settings['active_tools'] 'get_time': not a tool of scenario (one of get_weather)",
     "--active-tools 'get_time': not a tool of scenario (one of get_weather)"),
    ("litellm", {"drop_param": True}, "settings['drop_param']: not a dialect setting (one of drop_params, "
     "active_tools)", None),
])
def test_a_dialect_s_errors_say_its_arguments_to_python_and_its_options_to_the_command_line(
        name: str, settings: dict[str, Any] | None, python: str, command_line: str | None) -> None:
    with pytest.raises(ToolchoiceError) as caught:  # "langchian" was a KeyError from the table
        dialects.apply(name, jobs.render(SCENARIO, "openai"), SCENARIO, settings)
    assert str(caught.value) == python and "--" not in str(caught.value)
    if command_line is not None:
        assert in_command_words(caught.value) == command_line


def test_the_command_line_says_a_setting_of_another_dialect_as_before(tmp_path: Path) -> None:
    (tmp_path / "s.json").write_text(json.dumps(DATA), encoding="utf-8")
    done = run_cli(["render", str(tmp_path / "s.json"), "-p", "openai", "--dialect", "langchain", "--drop-params"],
                   env={"PATH": "", "NO_COLOR": "1"})
    assert (done.returncode, done.stderr) == (2, "toolchoice: error: --drop-params is a setting of --dialect litellm "
                                                 "(add --dialect litellm, or drop --drop-params)\n")


def test_a_dialect_takes_plain_python_values_and_refuses_wrong_types() -> None:
    api = jobs.render(SCENARIO, ["openai", "anthropic"])
    [one] = dialects.apply("vercel", api[:1], SCENARIO, {"active_tools": "get_weather"})  # one name as a str
    assert one.translation.request is not None
    assert [t["function"]["name"] for t in one.translation.request.body["tools"]] == ["get_weather"]
    with pytest.raises(ToolchoiceError, match=r"^dialect 'api': the API requests themselves"):
        dialects.apply("api", api, SCENARIO)
    for call, words in ((lambda: dialects.apply(3, api, SCENARIO), "name: give a dialect's name (str), not int"),
                        (lambda: dialects.apply("litellm", api, SCENARIO, ["drop_params"]), "settings: give a mapping"),
                        (lambda: dialects.apply("litellm", api[0], SCENARIO), "translations: give"),
                        (lambda: dialects.apply("litellm", api, DATA), "scenario: give a Scenario, not dict")):
        with pytest.raises(WrongArgument) as caught:
            call()
        assert str(caught.value).startswith(words), caught.value


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two requests the openai mock saved (a forced step, then the answer after the result), a run's transcripts and
    its OTLP trace, sent by jobs.run."""
    folder = tmp_path_factory.mktemp("saved")
    data = {**DATA, "tool_choice": "auto",
            "loop": {"max_steps": 3, "steps": [{"tool_choice": {"tool": "get_weather"}}, {"tool_choice": "auto"}],
                     "stop": {"when": "no_tool_call"}, "results": {"get_weather": "18 C"}}}
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("OPENAI_API_KEY", KEY)
        with running_mock("openai", save_dir=folder / "wire") as mock:
            jobs.run(load_scenario_dict(data), "openai", LoopOptions(render=RenderOptions(base_url=mock.base_url)),
                     save=folder / "runs", trace_out=folder / "trace.json")
    return folder


def test_import_saved_and_import_trace_take_a_str_path_and_read_back_as_scenarios(saved: Path) -> None:
    listing = saved_request.import_saved(str(saved / "wire"))  # was: 'str' object has no attribute 'is_dir'
    assert isinstance(listing, list) and [row["sample"] for row in listing] == [1, 2]
    second = saved_request.import_saved(str(saved / "wire"), sample=2)
    assert not isinstance(second, list) and second.provider == "openai"
    again = load_scenario_dict(second.data)
    assert again.tool_choice is not None and again.tool_choice.mode == "auto" and len(again.messages) == 3
    [traced] = trace_scenario.import_trace(str(saved / "trace.json"))
    assert isinstance(traced, trace_scenario.ImportedTrace) and load_scenario_dict(traced.data).loop is not None
    for call, words in ((lambda: saved_request.import_saved(3), "path: give a file or folder (str or Path), not int"),
                        (lambda: saved_request.import_saved(saved, sample="1"), "sample: give a whole number"),
                        (lambda: saved_request.import_saved(saved, provider=["openai"]), "provider: give a provider"),
                        (lambda: trace_scenario.import_trace(None), "path: give a file or folder"),
                        (lambda: trace_scenario.import_trace(saved / "trace.json", 7), "trace_id: give")):
        with pytest.raises(WrongArgument) as caught:
            call()
        assert str(caught.value).startswith(words), caught.value


def test_import_saved_given_a_sample_is_typed_as_one_saved_scenario() -> None:
    """A typed caller's ``import_saved(folder, sample=2).data`` needs no isinstance: the overload says a sample
    given is one ``SavedScenario``; without one, the listing may come back (a folder of several)."""
    import typing

    if not hasattr(typing, "get_overloads"):  # Python 3.10 keeps no record of overloads
        pytest.skip("typing.get_overloads is Python 3.11's")
    hints = [typing.get_type_hints(o, localns=vars(saved_request)) for o in typing.get_overloads(
        saved_request.import_saved)]
    assert [(h["sample"], h["return"]) for h in hints] == [
        (int, saved_request.SavedScenario),
        (type(None), saved_request.SavedScenario | list[dict[str, Any]])]


def test_import_saved_says_its_arguments_and_the_command_line_its_options(saved: Path, tmp_path: Path) -> None:
    one = saved / "wire" / "sample-001.request.json"
    alone = tmp_path / "sample-001.request.json"
    alone.write_bytes(one.read_bytes())  # no reply file beside it: the provider is not known
    elsewhere = tmp_path / "other"
    elsewhere.mkdir()
    (elsewhere / "sample-001.request.json").write_bytes(one.read_bytes())
    (elsewhere / "sample-001.reply.json").write_text('{"provider": "anthropic"}', encoding="utf-8")
    step = saved / "runs" / "openai" / "loop-001"
    cases = [
        (lambda: saved_request.import_saved(one, sample=1),
         f"{one}: sample=1 picks a sample in a folder; this is one file (drop sample=1, or give the folder)",
         f"{one}: --sample picks a sample in a folder; this is one file (drop --sample, or give the folder)"),
        (lambda: saved_request.import_saved(alone),
         f"{alone}: no sample-001.reply.json beside it names the provider (name the API the request was sent to "
         "with the provider argument (openai, anthropic, ...))",
         f"{alone}: no sample-001.reply.json beside it names the provider (name the API the request was sent to "
         "with -p (openai, anthropic, ...))"),
        (lambda: saved_request.import_saved(elsewhere, sample=1),
         f"{elsewhere / 'sample-001.request.json'}: POST /v1/chat/completions is not a request of anthropic's API "
         "but of openai's (read it as one with provider='openai')",
         f"{elsewhere / 'sample-001.request.json'}: POST /v1/chat/completions is not a request of anthropic's API "
         "but of openai's (read it as one with -p 'openai')"),
        (lambda: saved_request.import_saved(saved / "runs"),
         f"{saved / 'runs'}: no sample-NNN.request.json in the folder (a jobs.run(save=...) folder: "
         f"{step / 'scenario.yaml'} is that loop's scenario with its whole history, which load_scenario reads; or one "
         f"step's request: import_saved reads {step / 'step-01.request.json'})",
         f"{saved / 'runs'}: no sample-NNN.request.json in the folder (a run --save folder: "
         f"{step / 'scenario.yaml'} is that loop's scenario with its whole history, which render, send and run "
         f"take; or one step's request: toolchoice trace {step / 'step-01.request.json'})"),
    ]
    for call, python, command_line in cases:
        with pytest.raises(ToolchoiceError) as caught:
            call()
        assert str(caught.value) == python
        assert in_command_words(caught.value) == command_line


def test_a_key_in_the_path_import_saved_is_given_is_said_by_its_placeholder(monkeypatch: pytest.MonkeyPatch,
                                                                           tmp_path: Path) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    with pytest.raises(ToolchoiceError) as caught:
        saved_request.import_saved(tmp_path / KEY)
    assert KEY not in str(caught.value) + repr(caught.value.args) and "$OPENAI_API_KEY" in str(caught.value)


def test_the_key_env_note_names_the_python_keyword_and_doing_as_it_says_renders(monkeypatch: pytest.MonkeyPatch,
                                                                               tmp_path: Path) -> None:
    secret = "sk-proj-" + "b1C2" * 12  # a key's shape (mixed case and digits; test_saved_scenario's)
    body = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "hi"}], "metadata": {"note": secret}}
    path = tmp_path / "sample-001.request.json"
    path.write_text(json.dumps({"method": "POST", "url": "https://api.openai.com/v1/chat/completions", "headers": {},
                                "body": body}), encoding="utf-8")
    found = saved_request.import_saved(path, provider="openai")
    assert not isinstance(found, list)
    [note] = [entry for entry in found.notes if entry.code == "saved.key_env"]
    assert note.message.endswith('send with --allow-env MY_API_KEY; from Python, RenderOptions(allow_env=("MY_API_KEY",)))')
    assert secret not in json.dumps(found.data)
    monkeypatch.setenv("MY_API_KEY", secret)
    [rendered] = jobs.render(load_scenario_dict(found.data), "openai", RenderOptions(allow_env=("MY_API_KEY",)))
    assert rendered.request is not None and rendered.request.body["metadata"] == {"note": "$MY_API_KEY"}
    assert "env.allowed" in [entry.code for entry in rendered.ledger]


def test_a_dict_s_wrong_value_is_said_without_the_hint_about_how_yaml_reads_text() -> None:
    with pytest.raises(ToolchoiceError) as caught:
        load_scenario_dict({**DATA, "tools": [{"name": 42, "parameters": {"type": "object"}}]})
    assert str(caught.value) == "scenario['tools'][0]['name']: a tool's name must be a non-empty string, not int 42"
    with pytest.raises(ToolchoiceError) as caught:  # a file's text: YAML may have read `no` or 42 for the caller
        load_scenario_text("tools:\n  - {name: 42, parameters: {type: object}}\n")
    assert str(caught.value).endswith("not int 42 (quote it if YAML read it as something else)")


def _process_state() -> dict[str, Any]:
    rich_text = sys.modules.get("rich.text")
    root = logging.getLogger()
    return {"environ": dict(os.environ), "cwd": os.getcwd(), "handlers": list(root.handlers), "level": root.level,
            "disabled": logging.root.manager.disable, "last_resort": logging.lastResort,
            "signals": {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)},
            "rich_strip": getattr(rich_text, "strip_control_codes", None), "rich_loaded": rich_text is not None,
            "stdout": sys.stdout, "stderr": sys.stderr}


def test_library_calls_print_nothing_and_leave_the_process_as_they_found_it(capfd: pytest.CaptureFixture[str],
                                                                           tmp_path: Path) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"id": "c", "object": "chat.completion", "created": 0, "model": "m",
                                         "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
                                             "role": "assistant", "content": None, "tool_calls": [{
                                                 "id": "call_1", "type": "function", "function": {
                                                     "name": "get_weather", "arguments": '{"city": "Paris"}'}}]}}]})

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("OPENAI_API_KEY", KEY)
        settings = runner.SendSettings(transport=httpx.MockTransport(handler))
        before = _process_state()
        capfd.readouterr()
        [translation] = jobs.translations(SCENARIO, "openai")
        sent = jobs.send(SCENARIO, translation, repeat=2, settings=settings, save=tmp_path / "sent")
        looped = load_scenario_dict({**DATA, "loop": {"max_steps": 2, "results": {"get_weather": "18 C"}}})
        with jobs.run(looped, "openai", settings=settings) as ran:
            document = ran.document()
        probed = jobs.probe("openai", repeat=1, settings=settings)
        views = dialects.apply("langchain", jobs.render(SCENARIO, ["openai", "gemini"]), SCENARIO)
        listing = saved_request.import_saved(tmp_path / "sent")
        printed = capfd.readouterr()
        after = _process_state()
    assert sent.code == 0 and document["runs"][0]["loops"] and probed["questions"] and len(views) == 2
    assert isinstance(listing, list) and len(listing) == 2
    assert (printed.out, printed.err) == ("", "")
    assert after == before
    assert KEY not in json.dumps([sent.document(), document, probed, [v.to_json() for v in views], listing])
