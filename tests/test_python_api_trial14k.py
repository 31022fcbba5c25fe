"""transport's errors in a Python caller's words (trial 14k), the command line's byte for byte as before.

A URL no client can send to said "(check --base-url)" to a Python caller (``jobs.send`` of a translation rendered
to ``http://h:99999/v1``, ``transport.send_async`` of a hand-made request), a timeout out of its range
"--timeout nan: ... (for example --timeout 60)" (``transport.Timeouts``, ``check_seconds``), retries out of theirs
"--retries 11" (``RetryPolicy``), and ``translate`` with ``RenderOptions(base_url="http://u:p@h/v1")``
"--base-url http://…@h/v1: ...". Each error now carries a record (``named``'s ``said_parts``, ``hint_parts`` and
``names``; ``OutOfRange``'s ``argument``, ``value``, ``takes``, ``example``, ``lead``) from which the command line
draws its own words (cli/exits.py ``in_command_words``). The command line's lines below are those main printed at
af0ddeb (captured from real runs before the change); every check here is in-process, nothing is sent."""

from __future__ import annotations

import asyncio
import math
from pathlib import Path

import pytest

from toolchoice.cli.exits import in_command_words
from toolchoice.providers import OutOfRange, RenderOptions, ToolchoiceError
from toolchoice.providers.core import jobs, retry_policy, transport
from toolchoice.providers.core.model import Request
from toolchoice.providers.core.scenario import load_scenario

from cli import run_cli

WEATHER = Path(__file__).parents[1] / "configs" / "weather.yaml"
TAKES = "give a number of seconds greater than 0 and at most 3600"


def _request(url: str) -> Request:
    return Request("POST", url, {"Authorization": "Bearer $OPENAI_API_KEY"}, {"model": "m"}, ("OPENAI_API_KEY",))


def _python_words(error: ToolchoiceError) -> str:
    words = str(error)
    assert "--" not in words and words == error.one_line()
    return words


def test_a_translation_to_a_port_out_of_range_names_base_url_to_send_and_the_option_to_the_command_line(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-unused")
    scenario = load_scenario(str(WEATHER))
    translation = jobs.translate("openai", scenario, RenderOptions(base_url="http://h:99999/v1"))  # a dry run takes it
    with pytest.raises(ToolchoiceError) as caught:
        jobs.send(scenario, translation)
    said = "openai: cannot send to http://h:99999/v1/chat/completions: port out of range 0-65535"
    assert _python_words(caught.value) == f"{said} (check RenderOptions(base_url=...))"
    assert in_command_words(caught.value) == f"{said} (check --base-url)"
    assert caught.value.names == ("base_url",) and caught.value.hint_parts == ("check ", "")


@pytest.mark.parametrize("url, said", [
    ("ftp://h/v1", "cannot send to ftp://h/v1: not an http(s) URL"),
    ("http://u:p@h/v1", "cannot send to http://…@h/v1: it holds a user name or password (user:pass@host); keys are "
                        "read from the environment"),
])
def test_a_request_no_client_can_send_to_says_base_url_to_a_python_caller(
        url: str, said: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-unused")
    with pytest.raises(ToolchoiceError) as caught:
        transport.prepare(_request(url))
    assert _python_words(caught.value) == f"{said} (check RenderOptions(base_url=...))"
    assert in_command_words(caught.value) == f"{said} (check --base-url)"


def test_a_url_httpx_refuses_at_send_time_says_base_url_and_the_scenarios_key() -> None:
    """A control character in the host passes urllib (``_check_url``) and stops at httpx's parse, when sent."""
    request = _request("http://h\x01/v1")
    with pytest.raises(ToolchoiceError) as caught:
        asyncio.run(transport.send_async(request, environ={"OPENAI_API_KEY": "sk-unused"}))
    said = caught.value.message
    assert said.startswith("cannot send to http://h\x01/v1: Invalid non-printable ASCII character in URL")
    assert _python_words(caught.value) == f"{said} (check RenderOptions(base_url=...) / providers.<id>.base_url)"
    assert in_command_words(caught.value) == f"{said} (check --base-url / providers.<id>.base_url)"


@pytest.mark.parametrize("call, argument, value", [
    (lambda: transport.check_seconds(math.nan), "timeout", "nan"),
    (lambda: transport.Timeouts.from_total(0), "timeout", "0"),
    (lambda: transport.Timeouts(read=-1), "read", "-1"),
    (lambda: transport.Timeouts(connect=math.inf), "connect", "inf"),
])
def test_a_timeout_out_of_range_is_out_of_range_of_its_argument(call: object, argument: str, value: str) -> None:
    with pytest.raises(OutOfRange) as caught:
        call()  # type: ignore[operator]
    error = caught.value
    assert (error.argument, error.value, error.example, error.lead) == (argument, value, "60", "for example")
    assert _python_words(error) == f"{argument} {value}: {TAKES} (for example {argument}=60)"
    option = "--" + argument
    assert in_command_words(error) == f"{option} {value}: {TAKES} (for example {option} 60)"


def test_retries_out_of_range_keep_their_hint_and_name_retries() -> None:
    with pytest.raises(OutOfRange) as caught:
        retry_policy.RetryPolicy(retries=11)
    hint = "(each retry waits longer (0.5 s doubling to 8 s); the SDKs default to 2)"
    assert _python_words(caught.value) == f"retries 11: give a whole number from 0 to 10 {hint}"
    assert in_command_words(caught.value) == f"--retries 11: give a whole number from 0 to 10 {hint}"


@pytest.mark.parametrize("url, python, command_line", [
    ("http://u:p@h/v1", "options.base_url http://…@h/v1: it holds a user name or password (user:pass@host); keys are "
                        "read from the environment", "--base-url http://…@h/v1: it holds a user name or password "
                                                     "(user:pass@host); keys are read from the environment"),
    ("-x", "options.base_url -x: '-x' is an option's name, taken as the URL; write the URL right after "
           "options.base_url",
     "--base-url -x: '-x' is an option's name, taken as the URL; write the URL right after --base-url"),
])
def test_translate_names_options_base_url_where_the_command_line_says_base_url(url: str, python: str,
                                                                               command_line: str) -> None:
    with pytest.raises(ToolchoiceError) as caught:
        jobs.translate("openai", load_scenario(str(WEATHER)), RenderOptions(base_url=url))
    assert _python_words(caught.value) == f"{python} (give scheme://host[:port]/path only)"
    assert in_command_words(caught.value) == f"{command_line} (give scheme://host[:port]/path only)"


def test_the_command_lines_results_timeout_nan_keeps_its_own_words() -> None:
    done = run_cli(["run", str(WEATHER), "-p", "openai", "--base-url", "http://127.0.0.1:9/v1",
                    "--results-timeout", "nan"], env={"OPENAI_API_KEY": "unused"})
    assert done.returncode == 2 and done.stderr == (f"toolchoice: error: --results-timeout nan: {TAKES} (for example "
                                                    "--results-timeout 60)\n")


def test_a_rate_below_min_obeyed_is_said_as_the_argument_and_the_command_line_names_its_option(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``SendResult.below`` said "below --min-obeyed 0.9" to a Python caller; the command line's line (main at af0ddeb,
    a real ``send -n 3 --min-obeyed 0.9`` against a stand-in answering text) is drawn from its record."""
    import httpx

    from toolchoice.cli.exits import concluded
    from toolchoice.providers import SendSettings

    monkeypatch.setenv("OPENAI_API_KEY", "sk-unused")
    text = {"id": "x", "object": "chat.completion", "created": 1, "model": "m",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": "no"}, "finish_reason": "stop"}]}
    scenario = load_scenario(str(WEATHER.with_name("allowed-subset.yaml")))  # tool_choice: required (allowed tools)
    translation = jobs.translate("openai", scenario, RenderOptions(base_url="http://127.0.0.1:9/v1"))
    settings = SendSettings(retries=0, transport=httpx.MockTransport(lambda request: httpx.Response(200, json=text)))
    result = jobs.send(scenario, translation, repeat=3, settings=settings, min_obeyed=0.9)
    assert result.below == ["openai: obeyed 0/3 (0%), below min_obeyed 0.9"] and result.code == 4
    assert concluded(result) == 4
    assert capsys.readouterr().err == "toolchoice: error: openai: obeyed 0/3 (0%), below --min-obeyed 0.9\n"


@pytest.mark.parametrize("text, said", [
    (None, "{path}: no such capability file ({hint})"),
    ('{"a": 1', "{path}:1:8: not a capability overlay: invalid JSON: expecting ',' delimiter (a comma is missing "
                "between two items here, or a bracket before it is not closed; or {hint})"),
    ("[1]", "{path}:1:1: not a capability overlay: it holds no JSON object (no toolchoice_capabilities: 1) ({hint})"),
])
def test_a_file_that_is_no_overlay_says_how_a_python_caller_writes_one(tmp_path: Path, text: str | None,
                                                                      said: str) -> None:
    """``render --capabilities FILE``'s lines at main af0ddeb (real runs), and a Python caller's words for its hint."""
    from toolchoice.providers.core.capabilities import CAPABILITIES
    from toolchoice.providers.core.overlay import load_overlay

    path = tmp_path / "overlay.json"
    if text is not None:
        path.write_text(text)
    with pytest.raises(ToolchoiceError) as caught:
        load_overlay(path, CAPABILITIES)
    python = 'write one with json.dump(jobs.probe(...)["overlay"], file)'
    assert _python_words(caught.value) == said.format(path=path, hint=python)
    assert in_command_words(caught.value) == said.format(path=path, hint="write one with toolchoice probe --save FILE")
