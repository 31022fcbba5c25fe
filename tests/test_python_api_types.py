"""The Python API as a test suite of its own uses it (trial 13d, docs/python.md): the jobs' settings and results
are typed with the classes they hold, not ``Any`` (an IDE completes ``result.samples[0].verdict``); the names a
test needs come from ``toolchoice.providers``, the job modules loaded only when one is asked for; and a
``RenderOptions.base_url`` no client can send to is one ``ToolchoiceError`` before anything is rendered, as
``--base-url`` is, not a request rendered to it and refused at send time with the command line's words; and so is
a ``SendSettings`` whose timeout, retries or sleep is not what it takes (``sleep=5`` was an error sample quoting
an internal TypeError), while the command line's ``--timeout nan`` keeps its own words."""

from __future__ import annotations

import subprocess
import sys
import typing
from pathlib import Path

import pytest

import toolchoice.providers
from toolchoice.providers import (RenderOptions, SendSettings, ToolChoice, ToolchoiceError, WrongArgument,
                                  load_scenario_dict)
from toolchoice.providers.core import jobs, loop, loop_records, loop_replay, runner, trace_export
from toolchoice.providers.core.capabilities import Capability
from toolchoice.providers.core.mock import server as mock_server

from cli import run_cli

SCENARIO = {"tools": [{"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}],
            "tool_choice": "required", "messages": [{"role": "user", "content": "Weather in Paris?"}]}
TYPES = {**vars(runner), **vars(loop), **vars(loop_records), **vars(loop_replay),  # docs/python.md, "Types"
         **vars(trace_export)}


def test_the_results_and_settings_are_typed_with_the_classes_they_hold() -> None:
    hints = typing.get_type_hints(jobs.SendResult, localns=TYPES)
    assert hints["samples"] == list[runner.Sample] and hints["collected"] == runner.Collector | None
    assert typing.get_type_hints(jobs.CompareResult, localns=TYPES)["jobs"] == list[runner.Job]
    assert typing.get_type_hints(jobs.RunResult, localns=TYPES)["runs"] == list[loop_records.LoopRun]
    for job in (jobs.send, jobs.compare_send, jobs.probe, jobs.run):
        assert typing.get_type_hints(job, localns=TYPES)["settings"] == runner.SendSettings | None, job.__name__
    run = typing.get_type_hints(jobs.run, localns=TYPES)
    assert run["options"] == loop.LoopOptions | None and run["replay"] == loop_replay.Replay | None
    assert typing.get_type_hints(jobs.send, localns=TYPES)["on_sample"] == typing.Callable[[runner.Sample], None] | None
    options = typing.get_type_hints(loop.LoopOptions)
    assert options["override"] == ToolChoice | None and typing.get_args(options["capabilities"])[0] == typing.Mapping[
        str, Capability]
    # a step's verdict, as an IDE reads it from a run's result
    assert typing.get_type_hints(loop_records.LoopRun)["steps"] == list[loop_records.StepRecord]


def test_the_names_a_test_needs_come_from_the_package_and_load_when_asked() -> None:
    assert toolchoice.providers.SendSettings is runner.SendSettings
    assert toolchoice.providers.LoopOptions is loop.LoopOptions
    assert toolchoice.providers.running_mock is mock_server.running_mock
    assert {"SendSettings", "LoopOptions", "running_mock", "MissingKey", "BadReply"} <= set(toolchoice.providers.__all__)
    assert all(hasattr(toolchoice.providers, name) for name in toolchoice.providers.__all__)
    with pytest.raises(AttributeError, match="no attribute 'SendSetings'"):
        toolchoice.providers.SendSetings  # noqa: B018
    child = ("import sys, toolchoice.providers as p; p.RenderOptions; "
             "print(sorted(m for m in sys.modules if m.endswith(('.runner', '.loop', '.mock.server')) or m == 'httpx'))")
    loaded = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, check=True, timeout=60)
    assert loaded.stdout.strip() == "[]"


@pytest.mark.parametrize(("url", "words"), [
    ("ftp://127.0.0.1/v1", "base_url must be an http(s) URL with a host, not 'ftp://127.0.0.1/v1'"),
    ("127.0.0.1:8000/v1", "base_url must be an http(s) URL with a host"),
    ("http://127.0.0.1:8000/v1?key=abc", "base_url http://127.0.0.1:8000/v1?…: it holds a query string"),
])
def test_a_base_url_no_client_can_send_to_is_refused_before_rendering(url: str, words: str) -> None:
    scenario = load_scenario_dict(SCENARIO)
    for name, call in (("options.", lambda: jobs.render(scenario, "openai", RenderOptions(base_url=url))),
                       ("options.", lambda: jobs.translations(scenario, "openai", RenderOptions(base_url=url))),
                       ("options.render.", lambda: jobs.run(scenario, "openai",
                                                            loop.LoopOptions(render=RenderOptions(base_url=url))))):
        with pytest.raises(ToolchoiceError) as caught:
            call()
        assert str(caught.value).startswith(name + words) and "--base-url" not in str(caught.value)


@pytest.mark.parametrize(("settings", "kind", "words"), [
    (SendSettings(timeout=float("nan")), ToolchoiceError,
     "settings.timeout nan: give a number of seconds greater than 0 and at most 3600"),
    (SendSettings(timeout=0), ToolchoiceError, "settings.timeout 0: give a number of seconds"),
    (SendSettings(timeout=True), WrongArgument, "settings.timeout: give a number of seconds, not bool"),
    (SendSettings(timeout="60"), WrongArgument, "settings.timeout: give a number of seconds, not str"),
    (SendSettings(retries=11), ToolchoiceError, "settings.retries 11: give a whole number from 0 to 10"),
    (SendSettings(retries="2"), WrongArgument, "settings.retries: give a whole number (int), not str"),
    (SendSettings(sleep=5), WrongArgument, "settings.sleep: give an async function taking seconds"),
])
def test_send_settings_are_checked_in_the_callers_words(monkeypatch: pytest.MonkeyPatch, settings: SendSettings,
                                                        kind: type, words: str) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-0123456789abcdef")
    scenario = load_scenario_dict(SCENARIO)
    [translation] = jobs.translations(scenario, "openai", RenderOptions(base_url="http://127.0.0.1:9/v1"))
    for call in (lambda: jobs.send(scenario, translation, settings=settings),
                 lambda: jobs.compare_send(scenario, [translation], settings=settings),
                 lambda: jobs.probe("openai", settings=settings),
                 lambda: jobs.run(scenario, "openai", settings=settings)):
        with pytest.raises(kind) as caught:
            call()
        assert str(caught.value).startswith(words) and "--" not in str(caught.value)


def test_the_command_lines_timeout_nan_keeps_its_own_words() -> None:
    done = run_cli(["send", str(Path(__file__).parents[1] / "configs" / "weather.yaml"), "-p", "openai",
                    "--base-url", "http://127.0.0.1:9/v1", "--timeout", "nan"], env={"OPENAI_API_KEY": "unused"})
    assert done.returncode == 2 and done.stderr == ("toolchoice: error: --timeout nan: give a number of seconds greater "
                                                    "than 0 and at most 3600 (for example --timeout 60)\n")


def test_a_send_settings_transport_is_typed_by_httpxs_method_without_importing_httpx() -> None:
    """`SendSettings.transport` was `Any`: an IDE offered nothing and a type checker took a sync transport or a URL.
    It is `runner.AsyncTransport`, a Protocol of the one method httpx's client calls on it (what
    call_args.send_settings checks at run time); the hints resolve without httpx (runner imports it for type
    checkers alone), and httpx's own async transports have that method as httpx declares it, its sync one has not."""
    import inspect

    import httpx

    assert typing.get_type_hints(runner.SendSettings)["transport"] == runner.AsyncTransport | None
    ours = inspect.signature(runner.AsyncTransport.handle_async_request)
    assert inspect.iscoroutinefunction(runner.AsyncTransport.handle_async_request)
    for kind in (httpx.AsyncBaseTransport, httpx.MockTransport, httpx.AsyncHTTPTransport):
        theirs = inspect.signature(kind.handle_async_request)
        assert inspect.iscoroutinefunction(kind.handle_async_request) and list(theirs.parameters) == list(ours.parameters)
    assert not hasattr(httpx.HTTPTransport, "handle_async_request")
    with pytest.raises(WrongArgument, match="^settings.transport: give an httpx async transport"):
        jobs.probe("openai", settings=SendSettings(transport=httpx.HTTPTransport()))  # type: ignore[arg-type]
    child = ("import sys, typing; from toolchoice.providers.core import runner; "
             "print(typing.get_type_hints(runner.SendSettings)['transport'], 'httpx' in sys.modules)")
    loaded = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, check=True, timeout=60)
    assert loaded.stdout.strip() == "toolchoice.providers.core.runner.AsyncTransport | None False"
