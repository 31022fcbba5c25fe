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
from test_probe_choice_control import assert_words_whole, probe_table

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
        return Step.error("openai", 500, "the server is down: " + "trace " * 100)


def test_a_server_that_fails_every_request_is_not_said_to_reject_each_feature():
    with AlwaysFails("openai") as server:
        result = jobs.probe("openai", options=RenderOptions(base_url=server.base_url()), repeat=1, settings=QUICK)
        sent = len(server.requests)
    questions = by_feature(result)
    assert questions["unset"]["result"] == "rejected"  # the question without tool_choice: the server's own failure
    for feature in ("auto", "none", "required", "named", "allowed", "parallel"):
        assert questions[feature]["result"] == "inconclusive", questions[feature]
        # first in the evidence: the pretty table clips it after 200 characters, the long error comes after
        assert questions[feature]["evidence"].startswith("the question without tool_choice failed the same way")
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

    def next_step(self) -> Step:
        if len(self.requests) == 1:  # compressed when asked, not when the file is collected
            return Step(body=gzip.compress(b" " * (33 * 1024 * 1024), 1), headers={"Content-Encoding": "gzip"})
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


# ---- overlays edited by hand: one line naming the file and the line, exit 2 -----------------------------

GOOD = {"toolchoice_capabilities": 1, "provider": "openai", "endpoint": "http://127.0.0.1:9/v1/chat/completions",
        "model": "tiny", "measured_at": "2026-11-26T00:00:00Z", "samples_per_question": 3,
        "features": {"required": {"result": "rejected", "question": "required", "evidence": "status 400"}}}


def edited(**changes) -> str:
    """GOOD with ``changes`` (a feature change as features=...), written as probe writes it: indented JSON."""
    return json.dumps({**GOOD, **changes}, indent=2)


def line_of(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


@pytest.mark.parametrize("text, needle, words", [
    (edited(features={"required": "unsupported"}), '"required"', "must be a mapping"),
    (edited(features={"required": {"result": "unsupported"}}), '"result"', "not a support level"),
    (edited(features={"requried": {"result": "rejected"}}), '"requried"', "unknown feature 'requried'"),
    (edited(features={"required": {"result": "rejected", "evidence": 5}}), '"evidence"', "must be a string"),
    (edited(provider="nope"), '"provider"', "unknown provider 'nope'"),
    (edited(provider=["openai"]), '"provider"', "provider must be a"),
    (edited(endpoint=5), '"endpoint"', "endpoint must be a"),
    (edited(endpoint="api.openai.com/v1/chat/completions"), '"endpoint"', "http:// or https://"),
    (edited(samples_per_question="three"), '"samples_per_question"', "whole number"),
    (edited(model={"id": "x"}), '"model"', "model must be a string"),
    (edited(toolchoice_capabilities=2), '"toolchoice_capabilities"', "no toolchoice_capabilities: 1"),
    (edited(notes="hand-edited"), '"notes"', "unknown key 'notes'"),
    (edited().replace('"model": "tiny",', '"model": "tiny", "model": "other",'), '"model"', "duplicate key"),
])
def test_a_hand_edited_overlay_is_refused_at_its_line(tmp_path, text: str, needle: str, words: str):
    path = tmp_path / "caps.json"
    path.write_text(text)
    with pytest.raises(ToolchoiceError, match=words) as caught:
        load_overlay(path, CAPABILITIES)
    assert caught.value.path == str(path) and caught.value.line == line_of(text, needle), caught.value.one_line()


def test_a_bad_overlay_is_one_line_naming_file_and_line_exit_2(tmp_path):
    path = tmp_path / "caps.json"
    text = edited(features={"required": {"result": "native"}})
    path.write_text(text)
    result = run_cli(["render", str(Path(__file__).parents[1] / "configs/weather.yaml"), "-p", "openai",
                      "--capabilities", str(path)], env=dict(os.environ))
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1, result.stderr
    line = line_of(text, '"result"')
    assert f"{path}:{line}" in result.stderr and "Traceback" not in result.stderr


def test_the_overlay_probe_writes_loads_unchanged(tmp_path):
    path = tmp_path / "caps.json"
    path.write_text(edited())
    cap = load_overlay(path, CAPABILITIES)["openai"]
    assert cap.required.level.value == "unsupported" and cap.measured_endpoint == GOOD["endpoint"]


# ---- a base URL that replaces a hosted API's host (host_rules): asked, and set beside the source ------------

def test_at_a_replaced_host_probe_asks_what_the_source_refuses_and_says_so(tmp_path):
    """api.openai.com refuses more than 128 tools (the row's sourced tool_limit); a server at another base URL
    may take them. The probe there sends the question (it is not 'refused'), and its evidence and
    ``source_refuses`` say that what it measured differs from what the source states for the API's own host."""
    from toolchoice.providers.core.scenario import load_scenario_text

    tools = "".join(f"  - {{name: t{i}, parameters: {{type: object}}}}\n" for i in range(130))
    scenario = load_scenario_text("tools:\n" + tools + "messages:\n  - {role: user, content: hi}\n", "many.yaml")
    with StandIn("openai", default=Step(body={
            "id": "c", "object": "chat.completion", "created": 1, "model": "m", "choices": [{
                "index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": None,
                "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "t7", "arguments": "{}"}}]}}]}
            )) as server:
        result = jobs.probe("openai", scenario, options=RenderOptions(base_url=server.base_url()), repeat=1,
                            settings=QUICK, tool_choice=_choice_in("auto", scenario))
        sent = [len(r.json["tools"]) for r in server.requests]
    auto = by_feature(result)["auto"]
    assert sent == [130] and auto["result"] == "honored", auto
    assert auto["source_refuses"] == ["tools.over_limit"]
    assert auto["evidence"].startswith("sent here though a source says OpenAI")
    assert "tools.over_limit" in auto["evidence"]
    assert result["overlay"]["features"]["auto"]["evidence"] == auto["evidence"]


def _choice_in(value: str, scenario):
    from toolchoice.providers.core.choice import parse_tool_choice

    return parse_tool_choice(value, scenario.tool_names)


# ---- a server that stops answering: the probe is bounded in time ---------------------------------------------

class StopsAnswering(StandIn):
    """Answers the first question's two samples, then never answers in time (a server that hung or died)."""

    def next_step(self) -> Step:
        return Step.reply("openai") if len(self.requests) <= 2 else Step.reply("openai", delay=4)


def test_a_server_that_stops_answering_is_not_waited_on_for_every_question():
    """Each question waits out timeout x (retries + 1): a dead server cost every remaining question that
    (10 x 3 x 130 s with the defaults). After two questions in a row got no response at all, the rest are not
    sent; one question that hangs (a grammar that never ends) still lets the next ones be asked."""
    with StopsAnswering("openai") as server:
        result = jobs.probe("openai", options=RenderOptions(base_url=server.base_url()), repeat=2,
                            settings=runner.SendSettings(timeout=1.0, retries=0))  # 0.2 s failed under load
        sent = len(server.requests)
    results = [q["result"] for q in result["questions"]]
    assert results[:3] == ["honored", "did not arrive", "did not arrive"], results
    assert set(results[3:]) == {"not asked"} and sent == 6
    assert all("no response" in q["evidence"] for q in result["questions"][3:])
    assert jobs.probe_code(result) == 1


# ---- answers that must not become facts: mixed, rate-limited, in another provider's shape --------------------

TEXT_REPLY = {"id": "c", "object": "chat.completion", "created": 1, "model": "m", "choices": [{
    "index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "No tool needed."}}]}


class ObeysNoneOnceInThree(StandIn):
    """Under tool_choice none, answers text (obeyed) to every third request and a tool call to the others."""

    def next_step(self) -> Step:
        return Step(body=TEXT_REPLY) if len(self.requests) % 3 == 0 else Step.reply("openai")


class RateLimitsEveryOther(StandIn):
    """429 with Retry-After: 1 to every other request, the recorded reply to the rest."""

    def next_step(self) -> Step:
        return Step.error("openai", 429, retry_after="1") if len(self.requests) % 2 else Step.reply("openai")


class AnswersAnotherProvider(StandIn):
    """A 200 with Anthropic's body shape to an OpenAI Chat Completions request."""

    def next_step(self) -> Step:
        return Step.reply("anthropic")


@pytest.mark.parametrize("server, verdicts", [
    (ObeysNoneOnceInThree, ["unwanted_call", "unwanted_call", "obeyed"]),
    (RateLimitsEveryOther, ["error", "unwanted_call", "error"]),
    (AnswersAnotherProvider, ["error", "error", "error"]),
])
def test_answers_that_say_nothing_for_sure_are_inconclusive_and_state_no_fact(server, verdicts: list[str]):
    with server("openai") as stand_in:
        result = jobs.probe("openai", options=RenderOptions(base_url=stand_in.base_url()), repeat=3,
                            settings=runner.SendSettings(timeout=5, retries=0, concurrency=1),
                            tool_choice=_choice("none"))
    (none,) = result["questions"]
    assert none["result"] == "inconclusive" and none["verdicts"] == verdicts, none
    cap = load_overlay_text(result["overlay"])
    assert cap.none.level is CAPABILITIES["openai"].none.level  # a 1-of-3 answer is not called supported
    assert jobs.probe_code(result) == 1


def test_rate_limits_are_waited_out_as_retry_after_says_and_then_measured():
    waits: list[float] = []

    async def recorded(seconds: float) -> None:
        waits.append(seconds)

    with RateLimitsEveryOther("openai") as server:
        result = jobs.probe("openai", options=RenderOptions(base_url=server.base_url()), repeat=3,
                            settings=runner.SendSettings(timeout=5, retries=2, concurrency=1, sleep=recorded),
                            tool_choice=_choice("none"))
    control, none = result["questions"]  # an ignored answer: the control is asked too (test_probe_choice_control)
    assert none["result"] == "ignored" and none["verdicts"] == ["unwanted_call"] * 3
    assert control["feature"] == "unset" and control["samples"] == 3
    # each sample's first request was a 429 (requests 1, 3, 5, ...): it waited the Retry-After, then was answered
    assert waits == [1.0] * 6 and len(server.requests) == 12


# ---- hostile text from the server: data, never markup or escapes; the table whole at 80 and 60 columns -----

HOSTILE = "[bold red]OWNED[/] \x1b[2J\x1b]8;;http://evil\x07link\x1b]8;;\x07 \u202eRTL " + "W" * 90


class Hostile(StandIn):
    """A 400 whose message is Rich markup, terminal escapes and a long word; a 200 whose finish_reason is too."""

    def next_step(self) -> Step:
        if self.requests[-1].json.get("tool_choice") == "none":
            return Step.error("openai", 400, HOSTILE)
        body = json.loads(json.dumps(TEXT_REPLY))
        body["choices"][0]["finish_reason"] = HOSTILE
        return Step(body=body)


@pytest.mark.parametrize("columns", [80, 60])
def test_hostile_server_text_keeps_the_table_whole_and_inert(columns: int):
    with Hostile("openai") as server:
        result = run_cli(["probe", "-p", "openai", "--base-url", server.base_url(), "--repeat", "1", "--retries",
                          "0", "--tool-choice", "none"], env=dict(os.environ, COLUMNS=str(columns)))
    assert all(len(line) <= columns for line in result.stdout.splitlines()), result.stdout
    table, rows = probe_table(result.stdout)
    assert table and rows["none"][0] == "rejected" and rows["(not set)"][0] == "honored", rows
    shown = result.stdout + result.stderr
    assert "\x1b" not in shown and "\u202e" not in shown and "\x07" not in shown
    for _, evidence in rows.values():  # the markup shown as text, not applied
        assert "[bold red]OWNED[/]" in evidence and "W" * 90 in evidence.replace(" ", ""), evidence
    # the server's words as shown (controls written out), each whole on a line; the 90 W's are longer than a line
    assert_words_whole(table, ["invalid_request_error:", "red]OWNED[/]", "\\u202eRTL",
                               "\\u001b[2J\\u001b]8;;http://evil\\u0007link\\u001b]8;;\\u0007"], columns)


# ---- an overlay applies to the endpoint it was measured at, however its scheme and host are spelled ---------

@pytest.mark.parametrize("base_url, applied", [
    ("http://127.0.0.1:9/v1", True),
    ("HTTP://127.0.0.1:9/v1", True),  # URL schemes and hosts are case-insensitive (RFC 3986 6.2.2.1)
    ("http://127.0.0.1:9/V1", False),  # a path is not
    ("http://127.0.0.1:10/v1", False),
    ("http://localhost:9/v1", False),
])
def test_an_overlay_applies_at_its_endpoint_only(tmp_path, base_url: str, applied: bool):
    from toolchoice.providers.core.registry import translate
    from toolchoice.providers.core.scenario import load_scenario

    path = tmp_path / "caps.json"
    path.write_text(edited())  # required rejected at http://127.0.0.1:9/v1/chat/completions
    table = load_overlay(path, CAPABILITIES)
    scenario = load_scenario(str(Path(__file__).parents[1] / "configs/planner-trap.yaml"))
    t = translate("openai", scenario, RenderOptions(base_url=base_url), table)
    codes = {e.code for e in t.ledger}
    assert ("capabilities.overlay" in codes) is applied and ("capabilities.overlay_skipped" in codes) is not applied
    assert (t.effective_tool_choice == "required") is not applied


# ---- a server that echoes the key everywhere: the overlay never holds it ---------------------------------------

class EchoesTheKey(StandIn):
    """Puts the Authorization header it received into an error message, a tool name, an id and the model."""

    def next_step(self) -> Step:
        auth = self.requests[-1].headers.get("authorization", "")
        if self.requests[-1].json.get("tool_choice") == "none":
            return Step.error("openai", 400, f"Incorrect API key provided: {auth}; key {KEY[3:]}")
        return Step(body={"id": auth, "object": "chat.completion", "created": 1, "model": auth, "choices": [{
            "index": 0, "finish_reason": auth, "message": {"role": "assistant", "content": None, "tool_calls": [
                {"id": auth, "type": "function",
                 "function": {"name": KEY, "arguments": json.dumps({"city": auth})}}]}}]})


def test_the_overlay_never_holds_the_key_a_server_echoes():
    with EchoesTheKey("openai") as server:
        result = jobs.probe("openai", options=RenderOptions(base_url=server.base_url()), repeat=1, settings=QUICK)
        assert any(KEY in r.headers.get("authorization", "") for r in server.requests)  # it was sent
    saved = json.dumps(result["overlay"]) + json.dumps(result)
    assert "$OPENAI_API_KEY" in saved
    assert not any(KEY[i:i + 12] in saved for i in range(len(KEY) - 11))  # no run of 12 of its characters
