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
