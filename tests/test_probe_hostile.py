"""`toolchoice probe` against endpoints that lie, fail or misbehave, and hand-edited capability overlays.

The endpoints are stand-ins on 127.0.0.1 (tests/servers.py); what each one does is fixed by the test, so
the truth a result is held to is the server's script, never the code under test. Probes run in-process
through ``jobs.probe`` with one sample and no retries: the suite's CPU time matters."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import pytest
from servers import StandIn, Step

from cli import run_cli
from toolchoice.providers.core import jobs, runner
from toolchoice.providers.core.capabilities import CAPABILITIES
from toolchoice.providers.core.model import RenderOptions, ToolchoiceError
from toolchoice.providers.core.overlay import load_overlay

KEY = "sk-probe-hostile-0123456789"
QUICK = runner.SendSettings(timeout=5, retries=0)


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)


def by_feature(result: dict) -> dict[str, dict]:
    return {q["feature"]: q for q in result["questions"]}


class AlwaysFails(StandIn):
    """Answers every request the same 500, whatever it asks: nothing it says is about a tool_choice."""

    def next_step(self) -> Step:
        return Step.error("openai", 500, "the server is down")


def test_a_server_that_fails_every_request_is_not_said_to_reject_each_feature():
    with AlwaysFails("openai") as server:
        result = jobs.probe("openai", options=RenderOptions(base_url=server.base_url()), repeat=1, settings=QUICK)
        sent = len(server.requests)
    questions = by_feature(result)
    assert questions["unset"]["result"] == "rejected"  # the question without tool_choice: the server's own failure
    for feature in ("auto", "none", "required", "named", "allowed", "parallel"):
        assert questions[feature]["result"] == "inconclusive", questions[feature]
        assert "without tool_choice" in questions[feature]["evidence"]
    assert not [f for f, v in result["overlay"]["features"].items() if v["result"] in ("rejected", "ignored")
                and f != "unset"]
    assert jobs.probe_code(result) == 1
    assert sent >= 10  # every question was still asked


class CallsAnUnofferedTool(StandIn):
    """Answers every request with a call to `rm_rf`, a tool no request offers."""

    def next_step(self) -> Step:
        return Step(body={"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "m",
                          "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
                              "role": "assistant", "content": None, "tool_calls": [
                                  {"id": "call_1", "type": "function",
                                   "function": {"name": "rm_rf", "arguments": "{}"}}]}}]})


def test_calls_to_a_tool_never_offered_are_not_charged_to_the_choice_asked():
    with CallsAnUnofferedTool("openai") as server:
        result = jobs.probe("openai", options=RenderOptions(base_url=server.base_url()), repeat=1, settings=QUICK)
    questions = by_feature(result)
    assert questions["unset"]["result"] == "ignored" and questions["unset"]["verdicts"] == ["phantom_tool"]
    for feature in ("auto", "none", "required", "named"):
        assert questions[feature]["result"] == "inconclusive", questions[feature]
    cap = load_overlay_text(result["overlay"])
    assert cap.auto.level is CAPABILITIES["openai"].auto.level and cap.none.level is CAPABILITIES["openai"].none.level


def load_overlay_text(document: dict, tmp: Path | None = None):
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "caps.json"
        path.write_text(json.dumps(document))
        return load_overlay(path, CAPABILITIES)["openai"]


class HugeFirst(StandIn):
    """The first answer is a 200 whose body expands past the 32 MiB the transport reads (gzip); then replies."""

    BOMB = gzip.compress(b" " * (33 * 1024 * 1024), 1)

    def next_step(self) -> Step:
        if len(self.requests) == 1:
            return Step(body=self.BOMB, headers={"Content-Encoding": "gzip"})
        return Step.reply("openai")


def test_a_body_too_large_is_an_answer_not_silence():
    """The endpoint answered (status 200) with a body past the cap: the question is not 'did not arrive', and
    the probe goes on asking (it stops only when the first question got no response at all)."""
    with HugeFirst("openai") as server:
        result = jobs.probe("openai", options=RenderOptions(base_url=server.base_url()), repeat=1, settings=QUICK,
                            tool_choice=_choice("required"))
        sent = len(server.requests)
    first, second = result["questions"][:2]
    assert first["result"] == "inconclusive" and "larger than 32 MiB" in first["evidence"], first
    assert "status 200" in first["evidence"]
    assert second["result"] != "not asked" and sent == 2


def _choice(value: str):
    from toolchoice.providers.core.choice import parse_tool_choice
    from toolchoice.providers.core.probe import probe_scenario

    return parse_tool_choice(value, probe_scenario().tool_names)
