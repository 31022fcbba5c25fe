"""The library runner in-process: httpx's MockTransport stands in for the network and an injected
sleep records the waits, so retry and fault logic is checked without sockets or real waits.

Replies are real recorded bodies (tests/data/responses/*/SOURCES.md); the expected calls come from
each fixture's ``.expect.json``, written from the recording, not from the code under test."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from toolchoice.providers import load_scenario_text, translate
from toolchoice.providers.core import runner

DATA = Path(__file__).parent / "data" / "responses"
KEY = "sk-test-runner-canary-0123456789"

SCENARIO = """
tools:
  - name: get_weather
    parameters:
      type: object
      properties: {city: {type: string}, state: {type: string}}
      required: [city, state]
tool_choice: required
messages: [{role: user, content: Weather in San Francisco?}]
"""


def recorded(provider: str, name: str) -> tuple[dict, dict]:
    body = json.loads((DATA / provider / f"{name}.json").read_text())
    expect = json.loads((DATA / provider / f"{name}.expect.json").read_text())
    return body, expect


@pytest.fixture
def key(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)


def jobs_for(scenario_text: str = SCENARIO, provider: str = "openai"):
    scenario = load_scenario_text(scenario_text, "scenario.yaml")
    return runner.prepare_jobs(scenario, [translate(provider, scenario)])


def test_every_sample_is_sent_once_judged_and_reported_in_completion_order(key):
    body, expect = recorded("openai", "openai-chat-single-strict")
    seen: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json=body)

    jobs, secrets = jobs_for()
    reported: list[int] = []
    runner.run(jobs, 5, runner.SendSettings(concurrency=2, transport=httpx.MockTransport(answer)),
               on_sample=lambda job, sample: reported.append(sample.index))
    samples = jobs[0].samples
    assert len(seen) == 5 and sorted(reported) == [1, 2, 3, 4, 5]
    assert [s.index for s in samples] == [1, 2, 3, 4, 5]
    for sample in samples:
        assert [(c.id, c.name, c.arguments) for c in sample.reply.tool_calls] == [
            (c["id"], c["name"], c["arguments"]) for c in expect["calls"]]
        assert sample.reply.finish_reason == expect["finish_reason"]
        assert sample.verdict["category"] == "obeyed"
    # the key went in the header, and only there; the body sent is render's body
    assert seen[0].headers["authorization"] == f"Bearer {KEY}"
    assert json.loads(seen[0].content) == jobs[0].translation.request.body
    assert secrets == {KEY: "$OPENAI_API_KEY"}


def test_a_429_with_retry_after_is_retried_after_the_servers_wait_without_sleeping(key):
    body, _ = recorded("openai", "openai-chat-single-strict")
    answers = [httpx.Response(429, headers={"retry-after": "2"}, json={"error": {"message": "slow down"}}),
               httpx.Response(200, json=body)]
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    jobs, _ = jobs_for()
    runner.run(jobs, 1, runner.SendSettings(retries=2, transport=httpx.MockTransport(lambda r: answers.pop(0)),
                                            sleep=sleep))
    sample = jobs[0].samples[0]
    assert waits == [2.0]
    assert [a["status"] for a in sample.attempts] == [429, 200]
    assert sample.attempts[0]["wait_source"] == "retry-after"
    assert sample.verdict["category"] == "obeyed"


def test_a_sample_whose_transport_breaks_is_an_error_sample_and_the_others_survive(key):
    body, _ = recorded("openai", "openai-chat-single-strict")
    calls = {"n": 0}

    def flaky(request: httpx.Request) -> httpx.Response:
        calls["n"] += 1
        if calls["n"] == 2:
            raise httpx.ConnectError("connection refused", request=request)
        return httpx.Response(200, json=body)

    async def sleep(seconds: float) -> None:
        pass

    jobs, _ = jobs_for()
    runner.run(jobs, 3, runner.SendSettings(retries=0, concurrency=1, transport=httpx.MockTransport(flaky),
                                            sleep=sleep))
    categories = [s.verdict["category"] for s in jobs[0].samples]
    assert sorted(categories) == ["error", "obeyed", "obeyed"]
    failed = next(s for s in jobs[0].samples if s.verdict["category"] == "error")
    assert failed.status is None and "connection refused" in failed.reply.error.message


def test_a_missing_key_skips_the_job_naming_the_variable_or_raises_when_asked(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    jobs, secrets = jobs_for()
    assert jobs[0].prepared is None and "OPENAI_API_KEY" in jobs[0].skipped and secrets == {}
    scenario = load_scenario_text(SCENARIO, "scenario.yaml")
    from toolchoice.providers.core.model import ToolchoiceError

    with pytest.raises(ToolchoiceError, match="OPENAI_API_KEY"):
        runner.prepare_jobs(scenario, [translate("openai", scenario)], missing_key_fails=True)


def test_a_refused_translation_is_skipped_with_the_ledger_error_and_nothing_is_sent():
    """Ollama ignores tool_choice (its API has no such field), so --no-emulate refuses a named choice."""
    from toolchoice.providers import RenderOptions

    scenario = load_scenario_text(SCENARIO.replace("tool_choice: required", "tool_choice: get_weather"), "s.yaml")
    translation = translate("ollama", scenario, RenderOptions(emulate=False))
    jobs, _ = runner.prepare_jobs(scenario, [translation])
    assert translation.request is None and jobs[0].skipped.startswith("refused: ")
    runner.run(jobs, 1, runner.SendSettings(transport=httpx.MockTransport(lambda r: pytest.fail("sent"))))
    assert jobs[0].samples == []


def test_a_provider_error_body_becomes_the_providers_own_message(key):
    error = json.loads((DATA / "errors" / "error-openai-tool-choice-without-tools.json").read_text())
    jobs, _ = jobs_for()
    runner.run(jobs, 1, runner.SendSettings(retries=0, transport=httpx.MockTransport(
        lambda r: httpx.Response(400, json=error))))
    sample = jobs[0].samples[0]
    assert sample.status == 400 and sample.verdict["category"] == "error"
    assert sample.reply.error.message == error["error"]["message"]


def test_concurrency_k_puts_k_requests_on_a_real_server_at_once(key):
    """--concurrency 10 means ten requests in flight (over clients of at most 5 connections each): a
    real server counts the requests it holds at the same time."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    body, _ = recorded("openai", "openai-chat-single-strict")
    payload = json.dumps(body).encode()
    state = {"now": 0, "most": 0}
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            self.rfile.read(int(self.headers.get("content-length", 0)))
            with lock:
                state["now"] += 1
                state["most"] = max(state["most"], state["now"])
            threading.Event().wait(0.3)
            with lock:
                state["now"] -= 1
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *args: object) -> None:
            pass

    class Server(ThreadingHTTPServer):
        request_queue_size = 64
        daemon_threads = True

    server = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()
    try:
        scenario = load_scenario_text(SCENARIO, "scenario.yaml")
        from toolchoice.providers import RenderOptions

        url = f"http://127.0.0.1:{server.server_address[1]}/v1"
        jobs, _ = runner.prepare_jobs(scenario, [translate("openai", scenario, RenderOptions(base_url=url))])
        runner.run(jobs, 20, runner.SendSettings(concurrency=10, retries=0))
    finally:
        server.shutdown()
        server.server_close()
    assert [s.verdict["category"] for s in jobs[0].samples] == ["obeyed"] * 20
    assert state["most"] == 10, state


def test_judging_is_warmed_only_once_the_event_loop_has_nothing_else_to_run():
    """warm_judging's imports (~30-40 ms) wait for three passes of the event loop in a row that ran nothing else:
    while the workers still open connections and write requests (here: short steps, each a pass, with single
    quiet passes between them), the import would hold every first request back; once each waits for its reply,
    it takes time the loop would spend waiting."""
    import asyncio
    import time

    async def scenario() -> tuple[int, int]:
        done: list[float] = []

        async def worker() -> None:
            for step in range(8):  # opening a connection, writing a request: short steps, a pass each
                end = time.perf_counter() + 0.002
                while time.perf_counter() < end:
                    pass
                await asyncio.sleep(0)
                if step % 2:
                    await asyncio.sleep(0)  # a quiet pass between two busy ones
            done.append(time.perf_counter())
            await asyncio.sleep(5.0)  # waiting for the reply (cancelled once quiet: long, so load cannot blur it)

        workers = [asyncio.ensure_future(worker()) for _ in range(2)]
        await asyncio.sleep(0)
        await runner._quiet()
        busy_done = len(done)  # workers past their short steps when the loop was called quiet
        awaiting = sum(not task.done() for task in workers)  # still waiting for their replies
        for task in workers:
            task.cancel()
        await asyncio.gather(*workers, return_exceptions=True)
        return busy_done, awaiting

    busy_done, awaiting = asyncio.run(scenario())
    assert busy_done == 2, "warmed while the workers still had work to do"
    assert awaiting == 2, "waited for the replies instead of warming while they are awaited"
