"""`toolchoice probe` and capability overlays: the questions per provider, the classification, the
overlay file and how render uses it. The endpoint is a local stand-in scripted to behave like the
servers probe exists to catch (a 500 on required, a named choice answered with another tool)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from servers import StandIn, Step

from toolchoice.providers.core.capabilities import CAPABILITIES, Level
from toolchoice.providers.core.model import RenderOptions, ToolchoiceError
from toolchoice.providers.core.overlay import load_overlay
from toolchoice.providers.core.probe import (apply_overlay, classify, overlay_document, probe_scenario,
                                        question_translation, questions_for)

from cli import record_retry_waits, run_cli

ROOT = Path(__file__).resolve().parents[1]


def toolchoice(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return run_cli(args, env=env or dict(os.environ, OPENAI_API_KEY="sk-probe-test"))


def test_questions_cover_each_wire_form_the_translator_can_produce():
    scenario = probe_scenario()
    ids = {p: [q.feature for q in questions_for(p, CAPABILITIES[p], scenario)] for p in CAPABILITIES}
    # OpenAI: native named and allowed, the literal word "any", and the emulated named form
    assert ids["openai"] == ["unset", "auto", "none", "required", "any", "named", "named_emulated", "allowed",
                             "parallel", "history", "truncation"]
    # llama-server can only emulate named; Ollama has nothing to force with
    assert "named_emulated" not in ids["llamacpp"] and "named" in ids["llamacpp"]
    assert ids["ollama"] == ["unset", "auto", "none", "required", "named", "history"]
    # Anthropic's forcing word already is "any": no separate question
    assert "any" not in ids["anthropic"] and "parallel" in ids["anthropic"]


def test_each_question_builds_the_wire_it_claims():
    scenario = probe_scenario()
    cap = CAPABILITIES["openai"]
    by_feature = {q.feature: q for q in questions_for("openai", cap, scenario)}
    wire = {}
    for feature, question in by_feature.items():
        asked, t = question_translation(question, "openai", scenario, RenderOptions(), cap)
        assert t.request is not None, feature
        wire[feature] = t.request.body.get("tool_choice")
    assert wire["unset"] is None and wire["auto"] == "auto" and wire["none"] == "none"
    assert wire["required"] == "required" and wire["any"] == "any"
    assert wire["named"] == {"type": "function", "function": {"name": "get_time"}}
    assert wire["named_emulated"] == "required"
    assert wire["allowed"]["type"] == "allowed_tools"
    asked, t = question_translation(by_feature["named_emulated"], "openai", scenario, RenderOptions(), cap)
    assert [tool["function"]["name"] for tool in t.request.body["tools"]] == ["get_time"]
    asked, t = question_translation(by_feature["history"], "openai", scenario, RenderOptions(), cap)
    assert [m["role"] for m in t.request.body["messages"]] == ["system", "user", "assistant", "tool", "user"]
    assert t.request.body["messages"][2]["content"] is None  # the form some servers reject
    asked, t = question_translation(by_feature["truncation"], "openai", scenario, RenderOptions(), cap)
    assert t.request.body["max_tokens"] == 8
    assert asked.tool_choice is not None and asked.tool_choice.name == "get_time"


@pytest.mark.parametrize("categories, result", [
    (["obeyed", "obeyed"], "honored"),
    (["unwanted_call", "wrong_tool"], "ignored"),
    (["obeyed", "no_call"], "inconclusive"),
    (["obeyed", "error"], "inconclusive"),
    ([], "not asked"),
])
def test_classification(categories: list[str], result: str):
    assert classify([{"category": c} for c in categories]) == result


def test_rejected_needs_the_endpoint_to_say_the_request_is_invalid():
    """Issue 16, finding 12: an all-error question is "rejected" only when every sample was an HTTP
    error about the request; nothing arriving, a bad key or a rate limit says nothing about it."""
    errors = [{"category": "error"}] * 2
    assert classify(errors, [400, 422]) == "rejected"
    assert classify(errors, [401, 401]) == classify(errors, [429, 400]) == "inconclusive"
    # issue 29: nothing arriving is not "mixed answers"
    assert classify(errors, [None, None]) == "did not arrive"
    assert classify(errors) == "did not arrive"  # no reason says which status came back
    said = [{"category": "error", "reasons": ["openai: 400 invalid_request_error: tool_choice is not supported"]}]
    assert classify(said * 2) == "rejected"
    failed = [{"category": "error", "reasons": ["openai: transport_error: connection failed (after 3 attempts)"]}]
    assert classify(failed * 2) == "did not arrive" and classify(said + failed) == "inconclusive"


def test_adapt_never_charges_an_earlier_rejection_to_another_feature():
    from toolchoice.providers.core.probe import adapt

    qs = {q.feature: q for q in questions_for("openai", CAPABILITIES["openai"], probe_scenario())}
    assert adapt(qs["parallel"], {"required": "honored"}) == (qs["parallel"], "")
    asked, _ = adapt(qs["parallel"], {"required": "rejected"})
    assert asked is not None and asked.tool_choice == "auto" and asked.parallel is False
    asked, _ = adapt(qs["history"], {"named": "rejected"})
    assert asked is not None and asked.tool_choice == "auto" and asked.with_history
    asked, reason = adapt(qs["truncation"], {"named": "rejected"})
    assert asked is None and "named" in reason


def document(**features: str) -> dict[str, Any]:
    return overlay_document("openai", "http://127.0.0.1:9/v1/chat/completions", "tiny", 3, "2026-11-21T00:00:00Z",
                            [{"feature": f, "result": r, "question": f, "evidence": f"{f} evidence"}
                             for f, r in features.items()])


def test_overlay_turns_rejected_and_ignored_into_unsupported_and_keeps_honored():
    cap = apply_overlay(CAPABILITIES["openai"], document(required="rejected", none="ignored", named="honored",
                                                         history="rejected"))
    assert cap.required.level is Level.UNSUPPORTED and "rejected by http://127.0.0.1:9" in cap.required.note
    assert cap.none.level is Level.UNSUPPORTED
    assert cap.named.level is Level.NATIVE and "honored" in cap.named.note
    assert cap.auto == CAPABILITIES["openai"].auto  # not measured: built-in fact kept
    assert "2026-11-21" in cap.measured and "tiny" in cap.measured


def test_render_with_an_overlay_warns_where_the_endpoint_rejects(tmp_path):
    path = tmp_path / "caps.json"
    path.write_text(json.dumps(document(required="rejected")))
    local = ("--base-url", "http://127.0.0.1:9/v1")  # the endpoint the overlay was measured at
    result = toolchoice("render", str(ROOT / "configs/planner-trap.yaml"), "-p", "openai", "-f", "json",
                        "--capabilities", str(path), *local)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    entries = {e["code"]: e for e in data["ledger"]}
    assert "http://127.0.0.1:9" in entries["capabilities.overlay"]["message"]
    assert entries["tool_choice.ignored"]["severity"] == "warning"
    assert "rejected by http://127.0.0.1:9" in entries["tool_choice.ignored"]["message"]
    assert data["effective_tool_choice"] is None  # not sent where it is known to fail
    # other providers are untouched by an openai overlay
    other = json.loads(toolchoice("render", str(ROOT / "configs/planner-trap.yaml"), "-p", "groq", "-f", "json",
                                  "--capabilities", str(path)).stdout)
    assert other["effective_tool_choice"] == "required"
    refused = toolchoice("render", str(ROOT / "configs/planner-trap.yaml"), "-p", "openai", "-f", "json",
                         "--capabilities", str(path), "--no-emulate", *local)
    assert refused.returncode == 3
    # measured at a local server, it says nothing about api.openai.com: built-in facts there
    elsewhere = json.loads(toolchoice("render", str(ROOT / "configs/planner-trap.yaml"), "-p", "openai", "-f", "json",
                                      "--capabilities", str(path)).stdout)
    assert elsewhere["effective_tool_choice"] == "required"
    skipped = next(e for e in elsewhere["ledger"] if e["code"] == "capabilities.overlay_skipped")
    assert "http://127.0.0.1:9/v1/chat/completions" in skipped["message"]


@pytest.mark.parametrize("content, message", [
    ("not json", "not a capability overlay"),
    ('{"provider": "openai"}', "no toolchoice_capabilities: 1"),
    ('{"toolchoice_capabilities": 1, "provider": "nope", "features": {}, "endpoint": "x", "measured_at": "y"}',
     "unknown provider"),
    ('{"toolchoice_capabilities": 1, "provider": "openai", "features": {"auto": {"result": "great"}}, '
     '"endpoint": "http://x/v1", "measured_at": "y"}', "must be a measured result"),
])
def test_bad_overlay_files_are_bad_input(tmp_path, content: str, message: str):
    path = tmp_path / "caps.json"
    path.write_text(content)
    with pytest.raises(ToolchoiceError, match=message):
        load_overlay(path, CAPABILITIES)
    result = toolchoice("render", str(ROOT / "configs/weather.yaml"), "-p", "openai", "--capabilities", str(path))
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1


class Scripted(StandIn):
    """Answers like a server that rejects required, ignores none and named, and honors the rest."""

    def next_step(self) -> Step:
        body = self.requests[-1].json if self.requests else {}
        choice = body.get("tool_choice")
        if choice == "required":
            return Step(status=500, body={"error": {"message": "", "type": "internal_server_error",
                                                    "param": None, "code": None}})
        return Step.reply("openai", "openai-chat-single-strict")  # always calls the same tool


def test_probe_classifies_a_scripted_endpoint_and_saves_an_overlay(tmp_path, monkeypatch):
    slept = record_retry_waits(monkeypatch)  # the 500s are retried: the backoff is recorded, not slept
    scenario = tmp_path / "s.yaml"
    scenario.write_text("tools:\n  - {name: get_weather, parameters: {type: object, properties: {city: {type: string},"
                        " state: {type: string}}}}\n  - {name: other, parameters: {type: object}}\n"
                        "system: use tools\nmessages:\n  - {role: user, content: \"weather?\"}\n")
    with Scripted("openai") as server:
        base_url = server.base_url()
        overlay = tmp_path / "caps.json"
        result = toolchoice("probe", str(scenario), "-p", "openai", "--base-url", server.base_url(), "--repeat", "2",
                            "-f", "json", "--save", str(overlay))
        assert result.returncode == 0, result.stderr
        data = json.loads(result.stdout)
    results = {q["feature"]: q["result"] for q in data["questions"]}
    assert results["required"] == "rejected"
    assert results["none"] == "ignored"  # it called a tool under none
    assert results["auto"] == "honored"
    assert results["named"] == "ignored"  # named 'other', got get_weather: wrong_tool
    named = next(q for q in data["questions"] if q["feature"] == "named")
    assert named["verdicts"] == ["wrong_tool", "wrong_tool"] and "status 200" in named["evidence"]
    # required was rejected, so parallel is asked with auto (else it would only repeat that rejection)
    assert results["parallel"] == "honored"
    parallel = next(q for q in data["questions"] if q["feature"] == "parallel")
    assert "with auto" in parallel["question"]
    assert results["history"] == "ignored" and results["unset"] == "honored"
    required = next(q for q in data["questions"] if q["feature"] == "required")
    assert "openai: 500" in required["evidence"]
    # only the requests sending "required" got 500s (the required question and named_emulated, which sends
    # required with the one named tool): two samples each, each retried twice (the default --retries 2),
    # backing off 0.5·2ⁿ less up to 25%
    asked = [r for r in server.requests if r.json.get("tool_choice") == "required"]
    assert results["named_emulated"] == "rejected"
    assert len(asked) == 2 * 2 * 3 and len(slept) == 2 * 2 * 2
    first, second = sorted(slept)[:4], sorted(slept)[4:]
    assert all(0.375 <= w <= 0.5 for w in first) and all(0.75 <= w <= 1.0 for w in second)
    saved = json.loads(overlay.read_text())
    assert saved["features"]["required"]["result"] == "rejected"
    assert saved["endpoint"] == f"{base_url}/chat/completions"
    assert "sk-probe-test" not in overlay.read_text() + result.stdout + result.stderr


class BrokenOnce(StandIn):
    """Honors everything, but breaks the JSON of one sample of the `auto` question (a small real model does)."""

    def next_step(self) -> Step:
        body = self.requests[-1].json if self.requests else {}
        if body.get("tool_choice") == "auto" and not getattr(self, "broke", False) and "parallel_tool_calls" not in body:
            self.broke = True
            return Step.malformed()
        return Step.reply("openai", "openai-chat-single-strict")


def test_one_inconclusive_question_keeps_the_measured_answers(tmp_path, monkeypatch):
    """Issue 29: the overlay keeps what was measured; the unmeasured question is marked with its evidence and
    the exit code says that not everything was measured."""
    record_retry_waits(monkeypatch)
    scenario = tmp_path / "s.yaml"
    scenario.write_text("tools:\n  - {name: get_weather, parameters: {type: object, properties: {city: {type: string}}}}\n"
                        "messages:\n  - {role: user, content: \"weather?\"}\n")
    with BrokenOnce("openai") as server:
        overlay = tmp_path / "caps.json"
        result = toolchoice("probe", str(scenario), "-p", "openai", "--base-url", server.base_url(), "--repeat", "3",
                            "-f", "json", "--save", str(overlay), "--retries", "0")
    assert result.returncode == 1, result.stderr
    assert "auto: inconclusive" in result.stderr and str(overlay) in result.stderr
    saved = json.loads(overlay.read_text())
    assert saved["features"]["auto"]["result"] == "inconclusive" and saved["features"]["auto"]["evidence"]
    measured = [f for f, v in saved["features"].items() if v["result"] in ("honored", "ignored", "rejected")]
    assert len(measured) >= 3, saved["features"]
    from toolchoice.providers.core.capabilities import CAPABILITIES
    from toolchoice.providers.core.probe import apply_overlay

    cap = apply_overlay(CAPABILITIES["openai"], saved)
    assert cap.feature("auto").level == CAPABILITIES["openai"].feature("auto").level  # nothing stated from it
    rendered = toolchoice("render", str(scenario), "-p", "openai", "--capabilities", str(overlay))
    assert rendered.returncode == 0, rendered.stderr  # the overlay probe wrote is one render reads


def test_a_question_that_never_arrived_is_not_called_inconclusive(tmp_path):
    import socket as _socket

    with _socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    scenario = tmp_path / "s.yaml"
    scenario.write_text("tools:\n  - {name: t, parameters: {type: object}}\nmessages:\n  - {role: user, content: hi}\n")
    overlay = tmp_path / "caps.json"
    result = toolchoice("probe", str(scenario), "-p", "openai", "--base-url", f"http://127.0.0.1:{port}/v1",
                        "--repeat", "1", "--retries", "0", "-f", "json", "--tool-choice", "auto", "--save", str(overlay))
    assert result.returncode == 1
    data = json.loads(result.stdout)
    assert {q["result"] for q in data["questions"] if q["result"] != "not asked"} == {"did not arrive"}
    assert not overlay.exists()


def test_a_forcing_choice_refused_by_a_model_rule_still_lets_parallel_and_history_be_measured(tmp_path):
    """trial6d: for a model whose rule refuses every forcing tool_choice (claude-opus-5-5), the required and
    named questions are not asked (refused before sending, with the rule's words); parallel_tool_calls and the
    history question were then not asked either, though probe asks them with auto when required/named are
    rejected: the same holds when they are refused. The truth is what the stand-in received and answered."""
    scenario = tmp_path / "s.yaml"  # the stand-in answers its recorded reply: one call to `weather`
    scenario.write_text("tools:\n  - {name: other, parameters: {type: object}}\n  - {name: weather, parameters: "
                        "{type: object, properties: {location: {type: string}}}}\nmessages:\n  - {role: user, "
                        "content: weather?}\n")
    with StandIn("anthropic") as server:
        result = toolchoice("probe", str(scenario), "-p", "anthropic", "--base-url", server.base_url(), "--model",
                            "claude-opus-5-5",
                            "--repeat", "1", "-f", "json", "--retries", "0",
                            env=dict(os.environ, ANTHROPIC_API_KEY="sk-ant-probe-test"))
        received = [r.json.get("tool_choice") for r in server.requests]
    data = json.loads(result.stdout)
    by_feature = {q["feature"]: q for q in data["questions"]}
    assert by_feature["required"]["result"] == "not asked" and "refused" in by_feature["required"]["evidence"]
    parallel, history = by_feature["parallel"], by_feature["history"]
    assert parallel["result"] == "honored" and "with auto" in parallel["question"], parallel
    assert history["result"] == "honored" and "with auto" in history["question"], history
    assert {"type": "auto", "disable_parallel_tool_use": True} in received, received
    assert not any(isinstance(c, dict) and c.get("type") in ("any", "tool") for c in received), received
    truncation = by_feature.get("truncation")
    assert truncation is None or truncation["result"] == "not asked"


def test_an_endpoint_that_answers_nothing_is_asked_one_question_not_all() -> None:
    """A wrong host or port, a firewall that drops: every question waited out its timeouts in turn (12 questions
    x 3 samples x the timeout). After the first question asked gets no response on any sample, nothing more is
    sent: the server that accepts connections and never answers counts only the first question's."""
    import socket
    import threading

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    accepted: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                accepted.append(listener.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    try:
        result = toolchoice("probe", str(ROOT / "configs" / "weather.yaml"), "-p", "openai", "--base-url",
                       f"http://127.0.0.1:{listener.getsockname()[1]}/v1", "--repeat", "2", "--retries", "0",
                       "--timeout", "0.3", "-f", "json")
    finally:
        listener.close()
        for conn in accepted:
            conn.close()
    assert result.returncode == 1, result.stderr
    questions = json.loads(result.stdout)["questions"]
    assert questions[0]["result"] == "did not arrive" and questions[0]["samples"] == 2
    assert len(questions) > 5 and all(q["result"] == "not asked" and q["samples"] == 0 for q in questions[1:])
    assert len(accepted) == 2  # the first question's two samples, and nothing after
    assert f"{len(questions)} question(s) not measured" in result.stderr


def test_save_naming_the_scenario_probed_is_refused_before_anything_is_sent(tmp_path, monkeypatch):
    """`probe s.yaml --save ./s.yaml` wrote the capability overlay over the scenario it probed: the tools were gone
    (as --trace-out and --save over a run's own input were, call_args.not_an_input). One line, exit 2, nothing
    sent. An earlier overlay is no input of probe's (it takes no --capabilities): --save over it measures again."""
    from cli import refuse_sockets, refused, run_cli, user_env

    scenario = tmp_path / "s.yaml"
    scenario.write_text("tools:\n  - {name: get_weather, parameters: {type: object}}\nmessages:\n"
                        "  - {role: user, content: \"weather?\"}\n")
    before = scenario.read_bytes()
    tried = refuse_sockets(monkeypatch)
    line = refused(run_cli(["probe", str(scenario), "-p", "openai", "--base-url", "http://127.0.0.1:9/v1",
                            "--save", str(tmp_path / "." / "s.yaml")], env=user_env(OPENAI_API_KEY="sk-test")))
    assert line.startswith(f"toolchoice: error: --save {tmp_path / '.' / 's.yaml'}: it is {scenario}, which this run "
                           "reads: writing there would replace it"), line
    assert scenario.read_bytes() == before and not tried
