"""`toolchoice proxy` as an agent builder meets it: real framework clients (openai-agents, LangChain, the official
SDKs) on 127.0.0.1, the real API played by a 127.0.0.1 stand-in (tests/servers.py, or a raw asyncio server for
streams that never end and upstreams that never answer). The proxy runs in a thread of the test process
(`Running`); the command itself is run as a process only where signals and exit codes are what is tested."""

from __future__ import annotations

import asyncio
import functools
import json
import os
import signal
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from typing import Any, Iterator

import httpx
import pytest

from tests.servers import StandIn, Step
from toolchoice.providers.core.mock.proxy import ProxyHandler
from toolchoice.providers.core.mock.server import Running, Server

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
KEY = "sk-proxy-wire-secret-5e4d3c2b1a09"
WEATHER = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
CHAT = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "hi"}],
        "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": WEATHER}}],
        "tool_choice": "required"}


@contextmanager
def proxied(provider: str, upstream: str) -> Iterator[Running]:
    handler = ProxyHandler(provider, upstream)
    with Running(Server(handler, bad_request=handler.service.error), handler.module) as proxy:
        yield proxy


@functools.cache
def _mock_validator() -> Any:
    """The shipped schema (`toolchoice schema mock`), checked against its meta-schema once, not once a line."""
    from importlib import resources

    import jsonschema

    schema = json.loads(resources.files("toolchoice.cli").joinpath("schemas", "mock.schema.json").read_text())
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def _valid(lines: list[dict[str, Any]]) -> None:
    """Every line validates against the shipped schema (`toolchoice schema mock`)."""
    for line in lines:
        _mock_validator().validate(line)


def _settled(proxy: Running, count: int, seconds: float = 5.0) -> list[dict[str, Any]]:
    """The proxy's lines once ``count`` are out (a line follows the answer's last byte)."""
    deadline = time.monotonic() + seconds
    while len(proxy.records) < count and time.monotonic() < deadline:
        time.sleep(0.01)
    return list(proxy.records)


def streamed_through(provider: str, data: bytes, path: str, body: dict[str, Any],
                     upstream_path: str = "") -> tuple[bytes, dict[str, Any]]:
    """``data`` served as one SSE answer behind `toolchoice proxy -p provider` (upstream at ``upstream_path``), a
    streamed POST of ``body`` to ``path``: the bytes the client received and the proxy's one line."""
    from tests.streams import Piece, Script, StreamServer

    with StreamServer(Script([Piece(data)])) as upstream, proxied(provider, upstream.url + upstream_path) as proxy:
        with httpx.stream("POST", proxy.base_url + path, json=body, timeout=10) as answer:
            received = b"".join(answer.iter_raw())
        (line,) = _settled(proxy, 1)
    return received, line


# ---- what the upstream answers reaches the client unchanged; the key never reaches the lines -------------------


def test_an_upstream_error_echoing_the_key_passes_through_unchanged_and_the_line_never_holds_it() -> None:
    import openai

    echoed = Step.error("openai", 401, f"Incorrect API key provided: {KEY}. Find your key at ...")
    with StandIn("openai", echoed) as upstream, proxied("openai", upstream.base_url()) as proxy:
        client = openai.OpenAI(base_url=proxy.base_url, api_key=KEY, max_retries=0)
        with pytest.raises(openai.AuthenticationError) as raised:
            client.chat.completions.create(**CHAT)
        (line,) = _settled(proxy, 1)
    assert raised.value.status_code == 401
    assert raised.value.response.content == echoed.payload()  # the API's own body, byte for byte
    assert upstream.requests[0].headers["authorization"] == f"Bearer {KEY}"  # the key went on to the API
    assert line["status"] == 401 and [f["code"] for f in line["findings"]][-1] == "proxy.error"
    assert KEY not in json.dumps(line) and KEY[-12:] not in json.dumps(line)


def test_an_upstream_redirect_to_another_host_is_not_followed_and_the_line_says_where_it_points() -> None:
    elsewhere = "http://elsewhere.invalid/v1/chat/completions"
    with StandIn("openai", Step(status=307, body={}, headers={"Location": elsewhere})) as upstream, \
            proxied("openai", upstream.base_url()) as proxy:
        answered = httpx.post(proxy.base_url + "/chat/completions", json=CHAT, headers={"authorization": KEY},
                              timeout=10)
        (line,) = _settled(proxy, 1)
    assert answered.status_code == 307 and answered.headers["location"] == elsewhere  # the client decides
    assert len(upstream.requests) == 1
    (error,) = [f for f in line["findings"] if f["code"] == "proxy.error"]
    assert f"redirects to {elsewhere}" in error["message"], error


# ---- bounds: a stream that never ends, an upstream that never answers, a client that leaves ------------------

_EVENT = (b'data: {"id":"c","object":"chat.completion.chunk","created":0,"model":"m","choices":[{"index":0,'
          b'"delta":{"content":"' + b"x" * 4000 + b'"},"finish_reason":null}]}\n\n')


class EndlessUpstream:
    """A raw asyncio upstream on 127.0.0.1 in a thread. ``mode`` "stream": an SSE stream that never ends;
    "silent": reads the request and never answers; "cut": three events, then the connection dropped; "raw": the
    bytes in ``raw`` as the whole answer. ``released`` is set when the proxy lets the connection go."""

    def __init__(self, mode: str, raw: bytes = b"") -> None:
        self.mode = mode
        self.raw = raw
        self.released = threading.Event()
        self.received = threading.Event()  # a request arrived whole
        self.url = ""
        self._loop = asyncio.new_event_loop()
        self._server: asyncio.AbstractServer | None = None
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)

    def __enter__(self) -> "EndlessUpstream":
        self._thread.start()
        started = asyncio.run_coroutine_threadsafe(asyncio.start_server(self._answer, "127.0.0.1", 0), self._loop)
        self._server = started.result(10)
        self.url = f"http://127.0.0.1:{self._server.sockets[0].getsockname()[1]}/v1"
        return self

    def __exit__(self, *exc: object) -> None:
        async def close() -> None:
            assert self._server is not None
            self._server.close()
            for task in asyncio.all_tasks() - {asyncio.current_task()}:
                task.cancel()

        asyncio.run_coroutine_threadsafe(close(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()

    async def _answer(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                          if line.lower().startswith(b"content-length:"))
            await reader.readexactly(length)
            self.received.set()
            if self.mode == "silent":
                await reader.read()  # until the proxy closes its side
            elif self.mode == "raw":
                writer.write(self.raw)
                await writer.drain()
            else:
                writer.write(b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n")
                for _ in range(3 if self.mode == "cut" else 1 << 62):
                    writer.write(b"%x\r\n%s\r\n" % (len(_EVENT), _EVENT))
                    await writer.drain()
                writer.transport.abort()
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            self.released.set()
            writer.close()


def test_a_client_leaving_an_endless_stream_releases_the_upstream_and_still_gets_its_line() -> None:
    with EndlessUpstream("stream") as upstream, proxied("openai", upstream.url) as proxy:
        received = 0
        with httpx.stream("POST", proxy.base_url + "/chat/completions", json={**CHAT, "stream": True},
                          timeout=10) as response:
            for chunk in response.iter_raw():
                received += len(chunk)
                if received > 2_000_000:
                    break
        assert upstream.released.wait(5), "the proxy kept reading the upstream for a client that left"
        (line,) = _settled(proxy, 1)
    assert line["status"] == 200 and line["stream"] is True and "verdict" not in line
    assert [f["code"] for f in line["findings"]][-1] == "proxy.client_gone"


def test_a_client_giving_up_on_a_silent_upstream_releases_it_and_gets_its_line() -> None:
    with EndlessUpstream("silent") as upstream, proxied("openai", upstream.url) as proxy:
        with pytest.raises(httpx.ReadTimeout):
            httpx.post(proxy.base_url + "/chat/completions", json=CHAT, timeout=0.5)
        assert upstream.released.wait(5), "the proxy kept waiting on the upstream for a client that left"
        (line,) = _settled(proxy, 1)
    assert line["status"] == 502 and [f["code"] for f in line["findings"]][-1] == "proxy.client_gone"


def test_an_upstream_dropping_a_stream_midway_ends_the_clients_answer_at_once() -> None:
    import openai

    with EndlessUpstream("cut") as upstream, proxied("openai", upstream.url) as proxy:
        client = openai.OpenAI(base_url=proxy.base_url, api_key=KEY, max_retries=0, timeout=20)
        started = time.monotonic()
        with pytest.raises(openai.APIConnectionError):  # httpx: incomplete chunked read
            for _ in client.chat.completions.create(**CHAT, stream=True):
                pass
        waited = time.monotonic() - started
        (line,) = _settled(proxy, 1)
    assert waited < 10, f"the client waited {waited:.1f} s for the rest of a stream the upstream had dropped"
    assert line["status"] == 200 and [f["code"] for f in line["findings"]][-1] == "proxy.upstream"


@pytest.mark.parametrize("sig,mode", [(signal.SIGINT, "silent"), (signal.SIGTERM, "stream")])
def test_a_signal_with_a_request_on_its_way_ends_the_command_cleanly(sig: signal.Signals, mode: str) -> None:
    """The command itself: Ctrl-C while the upstream is slow to answer, SIGTERM in the middle of a stream."""
    with EndlessUpstream(mode) as upstream:
        proc = subprocess.Popen([sys.executable, "-m", "toolchoice.cli", "proxy", "-p", "openai", "--upstream",
                                 upstream.url, "-f", "jsonl"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        try:
            assert proc.stdout is not None
            url = proc.stdout.readline().strip()
            client = threading.Thread(target=_send_ignoring_errors, args=(url, mode == "stream"), daemon=True)
            client.start()
            assert upstream.received.wait(10)
            time.sleep(0.2)
            proc.send_signal(sig)
            out, err = proc.communicate(timeout=20)
        finally:
            proc.kill()
        client.join(10)
        assert upstream.released.wait(5)
    assert proc.returncode == 0, err  # docs/mock.md: SIGINT / SIGTERM end it cleanly with exit 0
    assert err == "toolchoice proxy: stopped after 1 request proxied: 1 cut short by the stop\n"  # no traceback
    assert out == ""  # the answer never ended: no line judges it


def _send_ignoring_errors(url: str, stream: bool) -> None:
    try:
        with httpx.stream("POST", url + "/chat/completions", json={**CHAT, "stream": stream}, timeout=30) as answer:
            for _ in answer.iter_raw():
                pass
    except httpx.HTTPError:
        pass


# ---- streams pass through byte for byte and are judged at the end -----------------------------------------------

def _tools_request(provider: str, tool: str) -> tuple[str, dict[str, Any]]:
    schema = {"type": "object", "properties": {}}
    if provider == "gemini":
        return ("/v1beta/models/gemini-3-flash-preview:streamGenerateContent?alt=sse",
                {"contents": [{"role": "user", "parts": [{"text": "hi"}]}],
                 "tools": [{"functionDeclarations": [{"name": tool, "parameters": schema}]}],
                 "toolConfig": {"functionCallingConfig": {"mode": "ANY"}}})
    if provider == "bedrock":
        return ("/model/amazon.nova-pro-v1:0/converse-stream",
                {"messages": [{"role": "user", "content": [{"text": "hi"}]}],
                 "toolConfig": {"tools": [{"toolSpec": {"name": tool, "inputSchema": {"json": schema}}}],
                                "toolChoice": {"any": {}}}})
    if provider == "anthropic":
        return ("/v1/messages", {"model": "claude-sonnet-4-5", "max_tokens": 64, "stream": True,
                                 "messages": [{"role": "user", "content": "hi"}],
                                 "tools": [{"name": tool, "input_schema": schema}], "tool_choice": {"type": "any"}})
    return ("/v1/chat/completions", {"model": "llama-3.3-70b-versatile", "stream": True,
                                     "messages": [{"role": "user", "content": "hi"}],
                                     "tools": [{"type": "function", "function": {"name": tool, "parameters": schema}}],
                                     "tool_choice": "required"})


@pytest.mark.parametrize("provider,fixture,tool,wire", [
    ("groq", "groq-tool-call.chunks.txt", "weather", "required"),
    ("anthropic", "anthropic-tool-no-args.chunks.txt", "updateIssueList", {"type": "any"}),
    ("gemini", "google-tool-call.chunks.txt", "weather", {"mode": "ANY"}),  # alt=sse
    ("bedrock", "amazon-bedrock-tool-call.1.chunks.txt", "test-tool", {"any": {}}),  # AWS event stream
])
def test_a_recorded_stream_reaches_the_client_byte_for_byte_and_is_judged_at_its_end(
        provider: str, fixture: str, tool: str, wire: Any) -> None:
    from tests.streams import Script, StreamServer, fixture_lines, framed, paced

    sent = framed(provider, fixture_lines(provider, fixture), done=provider == "groq")
    content_type = "application/vnd.amazon.eventstream" if provider == "bedrock" else "text/event-stream"
    with StreamServer(Script(paced(sent, 97, 0.0), content_type=content_type)) as upstream:
        base = upstream.url + ("" if provider in ("anthropic", "gemini", "bedrock") else "/openai/v1")
        with proxied(provider, base) as proxy:
            path, body = _tools_request(provider, tool)
            local = proxy.base_url.removesuffix("/v1") if provider == "groq" else proxy.base_url
            key = {"gemini": "x-goog-api-key", "anthropic": "x-api-key"}.get(provider, "authorization")
            with httpx.stream("POST", local + path, json=body, headers={key: KEY}, timeout=10) as answer:
                received = b"".join(answer.iter_raw())
                headers = answer.headers
            (line,) = _settled(proxy, 1)
    assert received == sent and headers["content-type"] == content_type
    assert line["stream"] is True and line["requested"] == wire and line["tool_choice"] == "required"
    assert [c["name"] for c in line["calls"]] == [tool] and line["verdict"] == "obeyed", line
    assert upstream.paths[0].endswith(path.split("/v1", 1)[-1] if provider == "groq" else path)
    assert KEY not in json.dumps(line)


# ---- an agent loop: each step numbered, each call followed from the answer that made it to its result ------------


@pytest.mark.parametrize("api,stream", [("openai", False), ("openai-responses", True)])
def test_an_openai_agents_loop_shows_each_steps_choice_and_follows_call_ids_to_their_results(api: str,
                                                                                             stream: bool) -> None:
    """openai-agents resets tool_choice after a tool call (ModelSettings.tool_choice + reset_tool_choice): the
    proxy shows step 1 forcing and step 2 not, and that step 2 carries step 1's call back as a result."""
    from agents import (Agent, ModelSettings, OpenAIChatCompletionsModel, OpenAIResponsesModel, Runner, function_tool,
                        set_tracing_disabled)
    from openai import AsyncOpenAI

    from toolchoice.providers.core.mock.server import running_mock

    set_tracing_disabled(True)

    @function_tool
    def get_weather(city: str) -> str:
        """The weather in a city."""
        return f"sunny in {city}"

    async def run(agent: Any) -> Any:
        if not stream:
            return await Runner.run(agent, "Weather in Paris?", max_turns=4)
        streamed = Runner.run_streamed(agent, "Weather in Paris?", max_turns=4)
        async for _ in streamed.stream_events():
            pass
        return streamed

    with running_mock(api) as upstream, proxied(api, upstream.base_url) as proxy:
        client = AsyncOpenAI(base_url=proxy.base_url, api_key=KEY, max_retries=0)
        kind = OpenAIResponsesModel if api == "openai-responses" else OpenAIChatCompletionsModel
        agent = Agent(name="weather", instructions="Answer.", tools=[get_weather], model=kind("gpt-4o-mini", client),
                      model_settings=ModelSettings(tool_choice="required"))
        result = asyncio.run(run(agent))
        first, second = _settled(proxy, 2)
    (sent_call,) = [item for item in result.new_items if item.type == "tool_call_item"]
    call_id = sent_call.raw_item.call_id  # the id the framework read from step 1's answer
    assert first["stream"] is stream and second["stream"] is stream
    assert (first["n"], first["requested"], first["verdict"]) == (1, "required", "obeyed")
    assert first["calls"][0]["id"] == call_id and "results" not in first
    assert (second["n"], second["requested"], second["tool_choice"]) == (2, None, None)  # the reset, on the wire
    assert second["results"] == [{"id": call_id, "name": "get_weather", "from": 1}]
    _valid([first, second])


def test_a_langchain_loop_through_the_proxy_links_each_result_to_the_step_that_called() -> None:
    from langchain_core.messages import HumanMessage, ToolMessage
    from langchain_openai import ChatOpenAI

    from toolchoice.providers.core.mock.server import running_mock

    with running_mock("openai") as upstream, proxied("openai", upstream.base_url) as proxy:
        model = ChatOpenAI(model="gpt-4o-mini", base_url=proxy.base_url, api_key=KEY, max_retries=0)
        bound = model.bind_tools([{"type": "function", "function": {"name": "get_weather", "parameters": WEATHER}}],
                                 tool_choice="get_weather")
        history: list[Any] = [HumanMessage("Weather in Paris?")]
        called = bound.invoke(history)
        history += [called, ToolMessage("sunny", tool_call_id=called.tool_calls[0]["id"])]
        model.bind_tools([{"type": "function", "function": {"name": "get_weather", "parameters": WEATHER}}]).invoke(
            history)
        first, second = _settled(proxy, 2)
    assert first["requested"] == {"type": "function", "function": {"name": "get_weather"}}
    assert first["tool_choice"] == {"tool": "get_weather"} and first["verdict"] == "obeyed"
    assert second["requested"] is None
    assert second["results"] == [{"id": called.tool_calls[0]["id"], "name": "get_weather", "from": 1}]


@pytest.mark.parametrize("framework", ["langchain-openai", "langchain-anthropic"])
def test_a_framework_turning_parallel_calls_off_sees_it_on_the_line_and_two_calls_judged_too_many(framework: str,
                                                                                                   capsys: Any) -> None:
    """`bind_tools(..., parallel_tool_calls=False)` reaches the wire as ChatOpenAI's `parallel_tool_calls: false` and
    ChatAnthropic's `disable_parallel_tool_use: true`; an answer of two calls then disobeys, as `send` judges it
    (too_many_calls), and the line says what was sent. The same step without the switch is obeyed."""
    from langchain_core.messages import HumanMessage

    from toolchoice.cli.mock_cmd import _pretty
    from toolchoice.providers.core.mock.script import Script, ScriptCall, Step as Reply
    from toolchoice.providers.core.mock.server import running_mock

    provider = framework.split("-")[1]
    two = Reply(calls=(ScriptCall("get_weather"), ScriptCall("get_time")))
    tools = [{"type": "function", "function": {"name": n, "parameters": WEATHER}} for n in ("get_weather", "get_time")]
    with running_mock(provider, script=Script(replies=(two, two))) as upstream, \
            proxied(provider, upstream.base_url) as proxy:
        if provider == "openai":
            from langchain_openai import ChatOpenAI

            model: Any = ChatOpenAI(model="gpt-4o-mini", base_url=proxy.base_url, api_key=KEY, max_retries=0)
        else:
            from langchain_anthropic import ChatAnthropic

            model = ChatAnthropic(model="claude-sonnet-4-5", base_url=proxy.base_url, api_key=KEY, max_retries=0)
        off = model.bind_tools(tools, tool_choice="any", parallel_tool_calls=False).invoke([HumanMessage("Paris?")])
        on = model.bind_tools(tools, tool_choice="any").invoke([HumanMessage("Paris?")])
        first, second = _settled(proxy, 2)
    assert len(off.tool_calls) == len(on.tool_calls) == 2  # the framework got both calls each time
    assert first["parallel_tool_calls"] is False and first["verdict"] == "too_many_calls", first
    assert "parallel_tool_calls" not in second and second["verdict"] == "obeyed", second
    assert first["model"] == second["model"] == ("gpt-4o-mini" if provider == "openai" else "claude-sonnet-4-5")
    _valid([first, second])
    _pretty(first)
    line = capsys.readouterr().out
    assert "tools [get_weather, get_time]  parallel_tool_calls false  200  " in line
    assert "warning verdict.too_many_calls" in line, line


def test_the_proxys_summary_tallies_its_lines_by_verdict() -> None:
    """When the proxy stops, its summary says how the steps it judged went: obeyed first, then each disobedience,
    then the lines without a verdict (an upstream error)."""
    import openai

    from toolchoice.providers.core.mock.proxy import serve_proxy
    from toolchoice.providers.core.mock.script import Script, ScriptCall, Step as Reply
    from toolchoice.providers.core.mock.server import running_mock

    two = Reply(calls=(ScriptCall("get_weather"), ScriptCall("get_weather")))
    urls: list[str] = []
    served: list[Any] = []
    with running_mock("openai", script=Script(replies=(two, two))) as upstream:
        thread = threading.Thread(target=lambda: served.append(serve_proxy(
            "openai", upstream.base_url, max_requests=3, on_url=urls.append, on_record=lambda line: None)))
        thread.start()
        deadline = time.monotonic() + 10
        while not urls and time.monotonic() < deadline:
            time.sleep(0.01)
        client = openai.OpenAI(base_url=urls[0], api_key=KEY, max_retries=0)
        body = {k: v for k, v in CHAT.items() if k != "tool_choice"}
        client.chat.completions.create(**body, tool_choice="required", parallel_tool_calls=False)  # 2 calls
        client.chat.completions.create(**body, tool_choice="required")
        with pytest.raises(openai.BadRequestError):
            client.chat.completions.create(**body, tool_choice={"type": "function", "function": {"name": "nope"}})
        thread.join(10)
    assert served[0].line() == ("toolchoice proxy: stopped after 3 requests proxied: 1 obeyed, 1 too_many_calls, "
                                "1 without a verdict")


def test_the_pretty_line_shows_results_with_their_step_and_reads_no_markup_or_escapes(capsys: Any) -> None:
    from toolchoice.cli.mock_cmd import _pretty

    _pretty({"n": 2, "provider": "openai", "path": "/v1/chat/completions", "stream": False, "requested": None,
             "tool_choice": None, "offered_tools": ["[bold]get_weather[/bold]"], "status": 200,
             "calls": [{"name": "\x1b[2Jwipe", "arguments": {"a": "[red]x"}, "id": "call_2"}],
             "results": [{"id": "call_1", "name": "get_weather", "from": 1}, {"id": "x", "name": "t", "from": None}],
             "findings": [], "verdict": "obeyed"})
    (printed,) = capsys.readouterr().out.splitlines()
    assert "tools [[bold]get_weather[/bold]]" in printed and '[red]x' in printed  # as sent, not styled
    # the escape never reaches the terminal, and is not dropped either: written out, as the tool_choice JSON on the
    # same line writes it, so the name shows as the client sent it (stripping it showed another name than the one sent)
    assert "\x1b" not in printed and '  \\u001b[2Jwipe({"a":"[red]x"})' in printed
    assert printed.endswith("results call_1←#1, x←#?")


def test_a_tool_name_with_an_escape_shows_the_same_in_the_tools_list_as_in_the_choice_json(capsys: Any) -> None:
    """The tools list showed `ab[bold]` (the escape stripped) beside the tool_choice JSON's `\u001b[31m`: one name two
    ways, one of them not what the client sent. Both are written out now."""
    import json as json_module

    from toolchoice.cli.mock_cmd import _pretty

    name = "a\x1b[31mb[bold]"
    choice = {"type": "function", "function": {"name": name}}
    _pretty({"n": 1, "provider": "openai", "path": "/v1/chat/completions", "stream": False, "requested": choice,
             "tool_choice": {"mode": "named", "name": name}, "offered_tools": [name], "status": 200, "calls": [],
             "findings": []})
    (printed,) = capsys.readouterr().out.splitlines()
    shown = json_module.dumps(name)[1:-1]  # JSON's escape: a\u001b[31mb[bold]
    assert "\x1b" not in printed and f"tools [{shown}]" in printed and printed.count(shown) == 3


# ---- bad input: an --upstream that cannot be one is refused before the proxy listens ------------------------


@pytest.mark.parametrize("upstream,says", [
    ("api.openai.com/v1", "must be an http(s) URL"),
    ("ftp://api.openai.com/v1", "must be an http(s) URL"),
    ("http://[::1", "is not a URL"),
    ("https://api.openai.com:99999/v1", "is not a URL"),
    ("https://me:sk-in-the-url-123456789@api.openai.com/v1", "user name or password"),
    ("https://generativelanguage.googleapis.com?key=AIza-in-the-url-123456", "query string"),
])
def test_an_upstream_that_is_no_base_url_is_one_line_and_exit_2(upstream: str, says: str) -> None:
    from tests.cli import run_cli

    done = run_cli(["proxy", "-p", "openai", "--upstream", upstream, "--max-requests", "1"])
    assert done.returncode == 2 and done.stdout == "", done
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("toolchoice: error: --upstream") and says in line, line
    assert "sk-in-the-url" not in line and "AIza-in-the-url" not in line


def test_a_request_path_httpx_cannot_send_on_is_answered_not_a_traceback(capfd: Any) -> None:
    import socket

    body = json.dumps(CHAT).encode()
    with StandIn("openai") as upstream, proxied("openai", upstream.base_url()) as proxy:
        port = int(proxy.base_url.rsplit(":", 1)[1].split("/")[0])
        with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
            raw.sendall(b"POST /v1/a\x7fb/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
                        b"content-length: %d\r\n\r\n%s" % (len(body), body))
            answer = raw.recv(65536)
        (line,) = _settled(proxy, 1)
    assert answer.startswith(b"HTTP/1.1 502 "), answer[:200]
    assert [f["code"] for f in line["findings"]][-1] == "proxy.upstream" and upstream.requests == []
    assert "Traceback" not in capfd.readouterr().err


def test_a_stream_with_faults_passes_unchanged_and_its_faults_are_findings() -> None:
    """An event that is not JSON and no final `[DONE]`: the stream assembler's findings (stream.*), as `send`'s."""
    odd = (b"data: {not json\n\n"
           b'data: {"id":"c","object":"chat.completion.chunk","created":0,"model":"m","choices":[{"index":0,'
           b'"delta":{"content":"fine"},"finish_reason":"stop"}]}\n\n')
    received, line = streamed_through("openai", odd, "/chat/completions", {**CHAT, "stream": True}, "/v1")
    assert received == odd
    codes = [f["code"] for f in line["findings"]]
    assert "stream.framing" in codes and "stream.no_final_event" in codes, line
    assert line["verdict"] == "no_call"


def test_an_answer_past_the_bound_passes_whole_and_is_named_not_misread(monkeypatch: Any) -> None:
    """The proxy reads at most MAX_BODY bytes of a whole answer (32 MiB; 1 MiB here, so that the test stays
    cheap): a larger one reaches the client whole, and its line says it was not judged (not "not JSON")."""
    from toolchoice.providers.core.mock import proxy as proxy_module
    from tests.servers import fixture

    monkeypatch.setattr(proxy_module, "MAX_BODY", 1 << 20)
    reply = fixture("openai", "openai-chat-single-strict")
    reply["choices"][0]["message"]["content"] = "x" * (3 << 20)
    big = Step(body=reply)
    with StandIn("openai", big) as upstream, proxied("openai", upstream.base_url()) as proxy:
        answered = httpx.post(proxy.base_url + "/chat/completions", json=CHAT, timeout=30)
        (line,) = _settled(proxy, 1)
    assert answered.content == big.payload()
    assert [f["code"] for f in line["findings"]] == ["proxy.too_large"] and "verdict" not in line, line


@pytest.mark.parametrize("stream", [False, True])
def test_an_upstream_that_compresses_anyway_reaches_the_client_decodable_and_is_judged(stream: bool) -> None:
    """The proxy asks for identity; an upstream (or a CDN before it) may gzip all the same. The bytes pass as they
    came, so their Content-Encoding must pass with them, and the proxy judges what they decode to."""
    import gzip

    import openai
    from tests.servers import fixture
    from tests.streams import Piece, Script, StreamServer, fixture_lines, framed

    if stream:
        packed = gzip.compress(framed("groq", fixture_lines("groq", "groq-tool-call.chunks.txt"), done=True))
        upstream_cm: Any = StreamServer(Script([Piece(packed)], headers={"Content-Encoding": "gzip"}))
    else:
        packed = gzip.compress(json.dumps(fixture("openai", "openai-chat-single-strict")).encode())
        upstream_cm = StandIn("openai", Step(body=packed, headers={"Content-Encoding": "gzip"}))
    with upstream_cm as upstream:
        base = upstream.url + "/v1"
        with proxied("openai", base) as proxy:
            client = openai.OpenAI(base_url=proxy.base_url, api_key=KEY, max_retries=0)
            if stream:
                chunks = list(client.chat.completions.create(**{**CHAT, "tools": [{"type": "function", "function": {
                    "name": "weather", "parameters": {"type": "object"}}}]}, stream=True))
                names = [d.function.name for c in chunks if c.choices for d in c.choices[0].delta.tool_calls or []
                         if d.function and d.function.name]
            else:
                whole = client.chat.completions.create(**CHAT)
                names = [c.function.name for c in whole.choices[0].message.tool_calls]
            (line,) = _settled(proxy, 1)
    assert names and [c["name"] for c in line["calls"]] == names
    assert "verdict" in line and not [f for f in line["findings"] if f["code"].startswith("proxy.")], line


def test_an_encoding_the_proxy_does_not_decode_passes_as_it_came_and_is_named() -> None:
    packed = Step(body=b"\x1b\x2f\x00\xf8 not really brotli", headers={"Content-Encoding": "br"})
    with StandIn("openai", packed) as upstream, proxied("openai", upstream.base_url()) as proxy:
        with httpx.stream("POST", proxy.base_url + "/chat/completions", json=CHAT, timeout=10) as answer:
            received = b"".join(answer.iter_raw())
            encoding = answer.headers["content-encoding"]
        (line,) = _settled(proxy, 1)
    assert received == packed.payload() and encoding == "br"
    assert [f["code"] for f in line["findings"]] == ["proxy.unread"] and "'br'" in line["findings"][0]["message"]


def test_a_pydantic_ai_agent_with_structured_output_forces_a_tool_on_every_step() -> None:
    """pydantic-ai sends "auto" for a text agent and "required" for a structured-output one (its output is the
    final_result tool): what its own API never shows, the proxy's lines do, with each result traced to its call."""
    from pathlib import Path
    from tempfile import TemporaryDirectory

    pytest.importorskip("pydantic_ai", reason="the test extra's pydantic-ai-slim[openai]")
    from pydantic import BaseModel
    from pydantic_ai import Agent
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.openai import OpenAIProvider

    from toolchoice.providers.core.mock.script import load_script
    from toolchoice.providers.core.mock.server import running_mock

    class Forecast(BaseModel):
        city: str

    with TemporaryDirectory() as folder:
        script = Path(folder) / "steps.yaml"
        script.write_text("replies:\n  - {}\n  - {call: final_result}\n", encoding="utf-8")
        steered = load_script(script)
    with running_mock("openai", script=steered) as upstream, proxied("openai", upstream.base_url) as proxy:
        model = OpenAIChatModel("gpt-4o-mini", provider=OpenAIProvider(base_url=proxy.base_url, api_key=KEY))
        agent = Agent(model, instructions="Answer.", output_type=Forecast)

        @agent.tool_plain
        def get_weather(city: str) -> str:
            """The weather in a city."""
            return "sunny"

        result = agent.run_sync("Weather in Paris?")
        first, second = _settled(proxy, 2)
    assert isinstance(result.output, Forecast)
    assert [line["requested"] for line in (first, second)] == ["required", "required"]
    assert first["offered_tools"] == ["get_weather", "final_result"]
    assert second["calls"][0]["name"] == "final_result" and second["verdict"] == "obeyed"
    assert second["results"] == [{"id": first["calls"][0]["id"], "name": "get_weather", "from": 1}]
    _valid([first, second])


def test_a_langchain_gemini_loop_follows_calls_without_ids_by_name() -> None:
    """Gemini's functionCall may carry no id (a result is paired by name): the proxy pairs them as the API does."""
    pytest.importorskip("langchain_google_genai", reason="the test extra's langchain-google-genai")
    from langchain_core.messages import HumanMessage, ToolMessage
    from langchain_google_genai import ChatGoogleGenerativeAI

    from toolchoice.providers.core.mock.server import running_mock

    tool = {"type": "function", "function": {"name": "get_weather", "parameters": WEATHER}}
    with running_mock("gemini") as upstream, proxied("gemini", upstream.base_url) as proxy:
        model = ChatGoogleGenerativeAI(model="gemini-3-flash-preview", google_api_key=KEY, base_url=proxy.base_url,
                                       max_retries=0)
        history: list[Any] = [HumanMessage("Weather in Paris?")]
        called = model.bind_tools([tool], tool_choice="get_weather").invoke(history)
        history += [called, ToolMessage("sunny", tool_call_id=called.tool_calls[0]["id"], name="get_weather")]
        chunks = list(model.bind_tools([tool]).stream(history))
        first, second = _settled(proxy, 2)
    assert chunks
    assert first["requested"] == {"allowedFunctionNames": ["get_weather"], "mode": "ANY"}
    assert first["tool_choice"] == {"tool": "get_weather"} and first["calls"][0]["id"] is None
    assert second["stream"] is True and second["path"].endswith(":streamGenerateContent")
    (result,) = second["results"]
    assert (result["name"], result["from"]) == ("get_weather", 1)
    assert KEY not in json.dumps([first, second])


def test_botocore_sends_no_bearer_key_to_the_proxys_http_url(monkeypatch: Any) -> None:
    """docs/mock.md says from botocore Bedrock is judged with `mock`: SigV4 is signed for the local host, and
    botocore refuses to send a bearer key over http (botocore/auth.py BearerAuth)."""
    import botocore.session
    from botocore.exceptions import InvalidEndpointConfigurationError

    from toolchoice.providers.core.mock.server import running_mock

    monkeypatch.setenv("AWS_BEARER_TOKEN_BEDROCK", "ABSK-bedrock-bearer-for-the-test-0123")
    with running_mock("bedrock") as upstream, proxied("bedrock", upstream.base_url) as proxy:
        client = botocore.session.get_session().create_client("bedrock-runtime", region_name="us-east-1",
                                                              endpoint_url=proxy.base_url)
        with pytest.raises(InvalidEndpointConfigurationError, match="requires an HTTPS endpoint"):
            client.converse(modelId="amazon.nova-pro-v1:0", messages=[{"role": "user", "content": [{"text": "hi"}]}])
    assert proxy.records == [] and upstream.records == []


def test_a_request_to_an_endpoint_toolchoice_does_not_judge_passes_and_is_no_error() -> None:
    """A framework may ask for more than the model's answer (openai-python's models.list()): passed on, its line says
    it was not judged, not that the API answered an unreadable reply."""
    import openai

    listing = {"object": "list", "data": [{"id": "gpt-4o", "object": "model", "created": 0, "owned_by": "openai"}]}
    with StandIn("openai", Step(body=listing)) as upstream, proxied("openai", upstream.base_url()) as proxy:
        models = openai.OpenAI(base_url=proxy.base_url, api_key=KEY, max_retries=0).models.list()
        (line,) = _settled(proxy, 1)
    assert [m.id for m in models] == ["gpt-4o"]
    assert (line["path"], line["status"], line["requested"]) == ("/v1/models", 200, None)
    assert [(f["severity"], f["code"]) for f in line["findings"]] == [("info", "proxy.not_judged")], line
    assert "verdict" not in line
    _valid([line])


def test_openai_agents_default_responses_model_behind_a_chat_completions_proxy_is_told_which_p_judges_it(
        capsys: Any) -> None:
    """openai-agents posts to /v1/responses unless told otherwise; a proxy (or mock) started with `-p openai` serves
    Chat Completions. The line says so and names the `-p` that judges it, and the pretty line claims no tool_choice,
    tools or text answer it never read."""
    from agents import Agent, ModelSettings, RunConfig, Runner, function_tool, set_tracing_disabled
    from agents.models.openai_provider import OpenAIProvider
    from openai import AsyncOpenAI

    from toolchoice.cli.mock_cmd import _pretty
    from toolchoice.providers.core.mock.server import running_mock

    set_tracing_disabled(True)

    @function_tool
    def get_weather(city: str) -> str:
        """The weather in a city."""
        return f"sunny in {city}"

    agent = Agent(name="weather", instructions="Answer.", tools=[get_weather], model="gpt-4o-mini",
                  model_settings=ModelSettings(tool_choice="required"))
    with running_mock("openai-responses") as upstream, proxied("openai", upstream.base_url) as proxy:
        client = AsyncOpenAI(base_url=proxy.base_url, api_key=KEY, max_retries=0)
        asyncio.run(Runner.run(agent, "Weather?", max_turns=3,
                               run_config=RunConfig(model_provider=OpenAIProvider(openai_client=client))))
        first = _settled(proxy, 2)[0]
    assert (first["path"], first["status"]) == ("/v1/responses", 200)
    (finding,) = first["findings"]
    assert (finding["severity"], finding["code"]) == ("warning", "proxy.not_judged")
    assert "start the proxy with -p openai-responses to judge it" in finding["message"], finding
    _valid([first])
    _pretty(first)
    line = capsys.readouterr().out
    assert line.startswith("#1  /v1/responses  not read  200  findings: warning proxy.not_judged: POST /v1/responses "
                           "is not an endpoint of this API (OpenAI Chat Completions) but OpenAI Responses's"), line
    assert "tools []" not in line and "text" not in line.split("findings")[0]
    with running_mock("openai") as mock, proxied("openai", mock.base_url) as proxy:  # an upstream that has no such path
        for url in (mock.base_url, proxy.base_url):
            client = AsyncOpenAI(base_url=url, api_key=KEY, max_retries=0)
            with pytest.raises(Exception, match="404"):
                asyncio.run(Runner.run(agent, "Weather?", max_turns=3,
                                       run_config=RunConfig(model_provider=OpenAIProvider(openai_client=client))))
        refused = mock.records[0]
        (passed,) = _settled(proxy, 1)
    assert refused["status"] == 404 and refused["findings"][0]["code"] == "mock.unknown_path"
    assert "start the mock with -p openai-responses to serve it" in refused["findings"][0]["message"], refused
    assert [(f["severity"], f["code"]) for f in passed["findings"]] == [("warning", "proxy.not_judged")], passed
    assert "-p openai-responses to judge it; passed on as it came (answered 404)" in passed["findings"][0]["message"]
    _pretty(passed)
    assert capsys.readouterr().out.startswith("#1  /v1/responses  not read  404  findings: warning proxy.not_judged: ")


def test_a_stream_request_answered_with_one_json_body_is_read_as_that_body() -> None:
    """A server that ignores `stream: true` answers application/json: judged as the body it is (as `send --stream`
    reads it, stream.not_streamed), not as an empty stream."""
    with StandIn("openai") as upstream, proxied("openai", upstream.base_url()) as proxy:
        answered = httpx.post(proxy.base_url + "/chat/completions", json={**CHAT, "stream": True}, timeout=10)
        (line,) = _settled(proxy, 1)
    assert answered.json()["choices"][0]["message"]["tool_calls"][0]["function"]["name"] == "get_weather"
    assert line["stream"] is True and [c["name"] for c in line["calls"]] == ["get_weather"]
    assert line["verdict"] == "obeyed" and "stream.not_streamed" in [f["code"] for f in line["findings"]], line


def test_a_sigv4_signed_bedrock_stream_keeps_the_access_key_and_session_token_out_of_lines_and_saves(
        tmp_path: Any) -> None:
    """botocore's SigV4 headers (Authorization with the access key id, X-Amz-Security-Token) go on to the upstream
    (here the mock, which checks no signature) and into no line or saved file; the event stream is judged."""
    import botocore.session

    from toolchoice.providers.core.mock.server import running_mock

    access, token = "AKIAPROXYWIRETEST0001", "FwoGZXIvYXdzEProxyWireSessionToken0123456789"
    with running_mock("bedrock") as upstream:
        handler = ProxyHandler("bedrock", upstream.base_url, tmp_path)
        with Running(Server(handler, bad_request=handler.service.error), handler.module) as proxy:
            client = botocore.session.get_session().create_client(
                "bedrock-runtime", region_name="us-east-1", endpoint_url=proxy.base_url, aws_access_key_id=access,
                aws_secret_access_key="proxy-wire-secret-access-key-0123456789", aws_session_token=token)
            events = list(client.converse_stream(
                modelId="amazon.nova-pro-v1:0", messages=[{"role": "user", "content": [{"text": "hi"}]}],
                toolConfig={"tools": [{"toolSpec": {"name": "get_weather", "inputSchema": {"json": WEATHER}}}],
                            "toolChoice": {"tool": {"name": "get_weather"}}})["stream"])
            (line,) = _settled(proxy, 1)
    assert any("contentBlockStart" in e for e in events)
    assert line["requested"] == {"tool": {"name": "get_weather"}} and line["verdict"] == "obeyed"
    saved = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert saved and {p.suffix for p in tmp_path.iterdir()} == {".json", ".eventstream"}
    for secret in (access, token):
        assert secret not in json.dumps(line) and secret.encode() not in saved


def test_the_upstreams_status_line_and_header_bytes_reach_the_client_as_they_came() -> None:
    """A header value in UTF-8 (RFC 9110 allows obs-text) and the API's own reason phrase: passed on byte for byte
    (the proxy wrote its own head from decoded text, and a value beyond Latin-1 broke the answer)."""
    body = json.dumps({"id": "c", "object": "chat.completion", "created": 0, "model": "m", "choices": [
        {"index": 0, "message": {"role": "assistant", "content": "hi"}, "finish_reason": "stop"}]}).encode()
    head = (b"HTTP/1.1 200 Fine Thanks\r\ncontent-type: application/json\r\nx-note: caf\xc3\xa9 \xe2\x98\x95\r\n"
            b"content-length: %d\r\n\r\n" % len(body))
    with EndlessUpstream("raw", head + body) as upstream, proxied("openai", upstream.url) as proxy:
        answered = httpx.post(proxy.base_url + "/chat/completions", json=CHAT, timeout=10)
        (line,) = _settled(proxy, 1)
    assert answered.content == body and answered.reason_phrase == "Fine Thanks"
    assert (b"x-note", "café ☕".encode()) in [(k.lower(), v) for k, v in answered.headers.raw]
    assert line["status"] == 200 and line["verdict"] == "no_call"


def test_a_fault_of_the_proxys_own_is_a_500_and_a_line_not_a_silent_drop(monkeypatch: Any) -> None:
    """Whatever goes wrong inside the proxy (here: writing the answer's head fails), the client gets an answer in
    the API's envelope and the line names it (proxy.internal_error), as the mock's own faults are."""
    from toolchoice.providers.core.mock import proxy as proxy_module

    def broken(*args: Any) -> bytes:
        raise RuntimeError(f"injected fault with the key {KEY}")

    monkeypatch.setattr(proxy_module, "_head_as_sent", broken)
    with StandIn("openai") as upstream, proxied("openai", upstream.base_url()) as proxy:
        answered = httpx.post(proxy.base_url + "/chat/completions", json=CHAT, headers={"authorization": KEY},
                              timeout=10)
        (line,) = _settled(proxy, 1)
    assert answered.status_code == 500 and "injected fault" in answered.json()["error"]["message"]
    assert line["status"] == 500 and [f["code"] for f in line["findings"]][-1] == "proxy.internal_error"
    assert KEY not in json.dumps(line) and KEY not in answered.text
