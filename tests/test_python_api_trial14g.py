"""The Python API's follow-ups to trial 14d (trial 14g), each as a Python caller meets it.

``running_mock``'s ``with`` returned the mock with an empty ``base_url`` when its server had not started listening
within its wait, and left the thread starting it; a port already taken was said in asyncio's words ("error while
attempting to bind on address ('127.0.0.1', N)"), not as the argument to change. ``jobs.run(replay=...)`` replayed
a saved stream without ``stream=True``: the check that refuses it was made by the command line only, so every step
of a Python caller's loop failed instead. ``loop.load_replay``'s errors named ``--replay``, ``--save`` and ``-p`` to
a Python caller; they are ``ArgumentError``s of ``replay`` now, whose record the command line draws its own words
from, byte for byte the lines it printed before (main at 29aeadc)."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import threading
from pathlib import Path

import pytest

from toolchoice.providers import (ArgumentError, LoopOptions, RenderOptions, ToolchoiceError, load_scenario_dict,
                                  running_mock)
from toolchoice.providers.core import jobs, loop

from cli import run_cli

LOOPED = {"tools": [{"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                                                            "required": ["city"]}}],
          "tool_choice": "auto", "messages": [{"role": "user", "content": "Weather in Paris?"}],
          "loop": {"max_steps": 2, "steps": [{"tool_choice": "get_weather"}, {"tool_choice": "auto"}],
                   "stop": {"when": "no_tool_call"}, "results": {"get_weather": "18 °C"}}}
CLI_WORDS = ("--", "`run", " -p ")
CHAT_REPLY = json.dumps({"id": "x", "object": "chat.completion", "choices": [
    {"index": 0, "message": {"role": "assistant", "content": "hi"}, "finish_reason": "stop"}]})


def test_a_taken_port_names_the_port_and_doing_as_it_says_listens() -> None:
    taken = socket.create_server(("127.0.0.1", 0))  # listening, as a server already there is
    port = taken.getsockname()[1]
    before = set(threading.enumerate())
    try:
        with pytest.raises(ArgumentError) as caught:
            with running_mock("openai", port=port):
                pass  # pragma: no cover - never entered
    finally:
        taken.close()
    assert str(caught.value) == (f"port {port}: cannot listen on 127.0.0.1: address already in use (choose another "
                                 "port, or port=0 for a free one)")
    assert caught.value.argument == "port" and set(threading.enumerate()) <= before
    with running_mock("openai", port=0) as mock:  # as it says
        assert mock.base_url.startswith("http://127.0.0.1:")


def test_a_host_that_is_not_this_machines_names_the_host() -> None:
    # 192.0.2.1 (TEST-NET-1, RFC 5737) is no interface here: bind() refuses it at once, nothing is sent
    with pytest.raises(ArgumentError) as caught:
        with running_mock("openai", host="192.0.2.1"):
            pass  # pragma: no cover - never entered
    assert str(caught.value) == ('host 192.0.2.1: cannot listen there: cannot assign requested address (give an '
                                 'address of this machine, e.g. host="127.0.0.1")')
    assert caught.value.argument == "host"


def test_a_start_that_outlasts_its_wait_raises_and_leaves_no_thread_socket_or_lock(tmp_path: Path) -> None:
    saved = tmp_path / "saved"
    mock = running_mock("openai", save_dir=saved)
    bound: dict[str, int] = {}

    async def listens_but_never_says_so() -> int:  # a real socket, listening; the start never ends
        sock = socket.create_server(("127.0.0.1", 0))
        bound["port"] = sock.getsockname()[1]
        mock.server._server = await asyncio.start_server(lambda r, w: None, sock=sock, start_serving=False)
        await asyncio.Event().wait()
        return 0  # pragma: no cover - never reached

    mock.server.start = listens_but_never_says_so  # type: ignore[method-assign]
    mock.wait = 0  # its first step (the bind) runs before the give-up reaches its loop
    before = set(threading.enumerate())
    with pytest.raises(ToolchoiceError) as caught:
        with mock:
            pass  # pragma: no cover - never entered
    assert str(caught.value) == ('the mock did not start listening on 127.0.0.1:0 within 0 s (a host name may take that '
                                 'long to look up: give an address (host="127.0.0.1"), or set a longer wait '
                                 '(running_mock(...).wait, in seconds) before the with block)')
    assert mock.base_url == "" and set(threading.enumerate()) <= before
    free = socket.socket()  # the socket it listened on is closed: the port binds again (it would be in use)
    free.bind(("127.0.0.1", bound["port"]))
    free.close()
    with running_mock("openai", save_dir=saved) as again:  # the save folder's lock was let go
        assert again.base_url


@pytest.fixture(scope="module")
def saved_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A loop run against the mock, saved streamed and saved whole (in-process, one mock)."""
    folder = tmp_path_factory.mktemp("runs")
    scenario = load_scenario_dict(LOOPED)
    with pytest.MonkeyPatch.context() as env, running_mock("openai") as mock:
        env.setenv("OPENAI_API_KEY", "any value")  # the mock checks no key
        for name, stream in (("streamed", True), ("whole", False)):
            options = LoopOptions(render=RenderOptions(base_url=mock.base_url, stream=stream))
            with jobs.run(scenario, "openai", options, save=folder / name) as done:
                assert done.code == 0, [r.ended for r in done.runs]
    return {"streamed": folder / "streamed", "whole": folder / "whole"}


def test_jobs_run_refuses_a_saved_stream_replayed_without_stream_before_a_step(saved_runs: dict[str, Path]) -> None:
    scenario = load_scenario_dict(LOOPED)
    replay = loop.load_replay(saved_runs["streamed"], "openai")
    with pytest.raises(ArgumentError) as caught:  # every step of the loop failed ("ended: error", code 1)
        jobs.run(scenario, "openai", replay=replay)
    transcript = saved_runs["streamed"] / "openai" / "loop-001"
    assert str(caught.value) == (f"replay {transcript}: step 1 is a saved stream: replay it with "
                                 "RenderOptions(stream=True)")
    assert (caught.value.argument, caught.value.names) == ("replay", ("stream",))
    with jobs.run(scenario, "openai", LoopOptions(render=RenderOptions(stream=True)), replay=replay) as again:
        assert again.code == 0 and [r.ended for r in again.runs] == ["no_tool_call"]  # as it says


def test_a_saved_reply_replays_to_a_streamed_request_too(saved_runs: dict[str, Path]) -> None:
    # the reverse is no error: the recorded reply answers the streamed request whole, as a server that does not stream
    scenario = load_scenario_dict(LOOPED)
    replay = loop.load_replay(saved_runs["whole"], "openai")
    with jobs.run(scenario, "openai", LoopOptions(render=RenderOptions(stream=True)), replay=replay) as done:
        assert done.code == 0 and [r.ended for r in done.runs] == ["no_tool_call"]


def _nothing(folder: Path) -> Path:
    return folder / "missing"


def _empty(folder: Path) -> Path:
    return folder


def _openai_body(folder: Path) -> Path:
    (folder / "step-1.json").write_text(CHAT_REPLY, encoding="utf-8")
    return folder


def _two_for_one_step(folder: Path) -> Path:
    _openai_body(folder)
    (folder / "step-01.response.json").write_text(CHAT_REPLY, encoding="utf-8")
    return folder


# each: the folder, the provider, the Python caller's words and the command line's (as main at 29aeadc printed them)
REPLAYS = {
    "no such folder": (_nothing, "openai", "replay {f}: no such folder (give the folder jobs.run(save=...) wrote)",
                       "--replay {f}: no such folder (give the folder --save wrote)"),
    "no saved loop": (_empty, "openai", "replay {f}: no saved loop found (give the folder jobs.run(save=...) wrote, or "
                      "one with step-01.response.json, step-02...)",
                      "--replay {f}: no saved loop found (give the folder `run --save` wrote, or one with "
                      "step-01.response.json, step-02...)"),
    "another family's body": (
        _openai_body, "anthropic",
        "replay: {f}/step-1.json looks like an OpenAI Chat Completions reply, not a reply in anthropic's format (a "
        "step body without its step-NN.reply.json replays only on the provider that answered it) (replay it with "
        "provider openai (or any OpenAI-compatible id); to see it on anthropic, replay the folder jobs.run(save=...) "
        "wrote, whose reply files replay on any provider)",
        "--replay: {f}/step-1.json looks like an OpenAI Chat Completions reply, not a reply in anthropic's format (a "
        "step body without its step-NN.reply.json replays only on the provider that answered it) (replay it with -p "
        "openai (or any OpenAI-compatible id); to see it on anthropic, replay the folder `run --save` wrote, whose "
        "reply files replay on any provider)"),
    "two files for one step": (_two_for_one_step, "openai",
                               "replay: {f}/step-01.response.json and step-1.json both answer step 1 (keep one of them)",
                               "--replay: {f}/step-01.response.json and step-1.json both answer step 1 (keep one of "
                               "them)"),
}


@pytest.mark.parametrize("case", list(REPLAYS))
def test_load_replay_speaks_python_and_the_command_line_its_own_words(tmp_path: Path, case: str) -> None:
    make, provider, python_words, command_words = REPLAYS[case]
    folder = make(tmp_path)
    with pytest.raises(ArgumentError) as caught:
        loop.load_replay(str(folder), provider)
    assert str(caught.value) == python_words.format(f=folder) and caught.value.argument == "replay"
    assert not any(word in str(caught.value) for word in CLI_WORDS), str(caught.value)
    done = run_cli(["run", str(Path(__file__).resolve().parents[1] / "configs" / "planner-loop.yaml"), "-p", provider,
                    "--replay", str(folder)], env={"PATH": os.environ.get("PATH", "")})
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"toolchoice: error: {command_words.format(f=folder)}\n"


def test_the_command_line_says_a_saved_stream_as_before(saved_runs: dict[str, Path]) -> None:
    # now said by jobs.run (the command line no longer asks Replay.check_stream itself)
    done = run_cli(["run", str(Path(__file__).resolve().parents[1] / "configs" / "planner-loop.yaml"), "-p", "openai",
                    "--replay", str(saved_runs["streamed"])], env={"PATH": os.environ.get("PATH", "")})
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (f"toolchoice: error: --replay {saved_runs['streamed'] / 'openai' / 'loop-001'}: step 1 is "
                           "a saved stream: replay it with --stream\n")


def test_the_flags_ledger_messages_name_are_the_render_options_docs_python_md_gives() -> None:
    # the ledger is the command line's data too (render's JSON, snapshots): its words name flags, and docs/python.md
    # gives each flag's RenderOptions field; held against the command's own options and the messages themselves
    import re

    import typer.main

    from toolchoice.cli.app import app

    text = (Path(__file__).resolve().parents[1] / "docs" / "python.md").read_text(encoding="utf-8")
    table = dict(re.findall(r"^\| `(--[a-z-]+)` \| `RenderOptions\((\w+)=", text, re.M))
    options = {opt for param in typer.main.get_command(app).commands["render"].params for opt in param.opts}
    assert len(table) == 7 and set(table) <= options and set(table.values()) <= set(RenderOptions._fields), table
    assert all(field == flag.removeprefix("--no-" if flag.startswith("--no-") else "--").replace("-", "_")
               for flag, field in table.items())
    forced = {**LOOPED, "tool_choice": {"tool": "get_weather"}, "parallel_tool_calls": False}
    forced.pop("loop")
    with_header = {**forced, "providers": {"openai": {"headers": {"X-Team": "$TEAM_TOKEN"}}}}
    renders = [(forced, "ollama", RenderOptions(emulate=False)), (forced, "gemini", RenderOptions(strict=True)),
               (with_header, "openai", RenderOptions(allow_env=("TEAM_TOKEN",))), (with_header, "openai", RenderOptions()),
               (forced, "openai", RenderOptions(base_url="http://127.0.0.1:9/v1", gateway=True))]
    said = {}
    for scenario, provider, options in renders:
        for entry in jobs.render(load_scenario_dict(scenario), provider, options)[0].ledger:
            for flag in re.findall(r"(?<![\w-])--[a-z][a-z-]+", entry.message):
                said.setdefault(entry.code, set()).add(flag)
    assert said == {"tool_choice.unsupported": {"--no-emulate"}, "strict.refused": {"--strict"},
                    "model.default": {"--model"}, "env.allowed": {"--allow-env"}, "env.not_allowed": {"--allow-env"},
                    "endpoint.base_url": {"--gateway"}}, said
    assert set().union(*said.values()) <= set(table)
