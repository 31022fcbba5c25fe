"""Adversarial round on session 18's merges: `run --replay FILE.har` (providers/core/trace_har_replay.py), through the
real CLI entry, in-process.

Truth from outside the code: openai-python builds every request (its own body for each call, at its own default base
URL) and parses every answer; an ``httpx.MockTransport`` answers it in-process with Chat Completions bodies and keeps
each exchange, which tests/har_recorder.py writes as a HAR 1.2 file, as a debugging proxy saves an app's traffic. A
replay must send, step by step, what the SDK sent: "nothing the user wrote silently changed", and no socket opened."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from cli import run_cli, refuse_sockets
from har_recorder import OPENAI_TOOLS, QUESTION, Exchange, har, httpx

KEY = "sk-proj-adversarial18bKey0123456789abcdefXYZ"


def _reply(calls: list[tuple[str, str]] | None, text: str = "") -> dict[str, Any]:
    """A Chat Completions answer: the tool calls (id, name) made, or a text answer."""
    message: dict[str, Any] = {"role": "assistant", "content": None if calls else text}
    if calls:
        message["tool_calls"] = [{"id": i, "type": "function",
                                  "function": {"name": n, "arguments": '{"city": "Paris"}'}} for i, n in calls]
    return {"id": "chatcmpl-adv18b", "object": "chat.completion", "created": 1, "model": "gpt-4o-mini",
            "choices": [{"index": 0, "finish_reason": "tool_calls" if calls else "stop", "message": message}],
            "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}}


def _recorded(tmp: Path, name: str, steps: list[dict[str, Any]], texts: tuple[int, ...] = (),
              edit: dict[int, Callable[[list[Any]], list[Any]]] | None = None) -> tuple[Path, list[dict[str, Any]]]:
    """A GPT loop of ``len(steps)`` calls, each made by openai-python with the step's own keyword arguments (its
    tools, its tool_choice or none, its settings); every call but the last (and those ``texts`` numbers, from 0) gets
    a get_weather call back, its result sent back on the next; after a text answer the user asks again; ``edit``:
    call number (from 0) -> what the app does to the history it sends then. Returns the HAR and the bodies sent."""
    import openai

    exchanges: list[Exchange] = []
    answers = iter([_reply(None, "Sunny.") if n in texts or n == len(steps) - 1 else
                    _reply([(f"call_{n}", "get_weather")]) for n in range(len(steps))])

    def answer(request: httpx.Request) -> httpx.Response:
        body = request.read()
        content = json.dumps(next(answers)).encode()
        headers = httpx.Headers({"content-type": "application/json"})
        exchanges.append(Exchange(request, body, 200, headers, content))
        return httpx.Response(200, headers=headers, content=content)

    chat = openai.OpenAI(api_key=KEY, max_retries=0, http_client=httpx.Client(transport=httpx.MockTransport(answer)))
    history: list[Any] = [{"role": "user", "content": QUESTION}]
    for number, kwargs in enumerate(steps):
        sent = (edit or {}).get(number, lambda h: h)(history)
        reply = chat.chat.completions.create(model="gpt-4o-mini", messages=sent, **kwargs)
        message = reply.choices[0].message
        history = [*history, message.model_dump(exclude_none=True),
                   *({"role": "tool", "tool_call_id": c.id, "content": f"sunny ({number})"}
                     for c in message.tool_calls or ())]
        if not message.tool_calls:
            history.append({"role": "user", "content": "And tomorrow?"})
    path = tmp / f"{name}.har"
    path.write_text(json.dumps(har(exchanges)), encoding="utf-8")
    return path, [json.loads(e.body) for e in exchanges]


@pytest.fixture
def no_socket(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every way out of the process refused and counted: a replay opens none."""
    tried = refuse_sockets(monkeypatch)
    yield tried
    assert tried == []


def _replayed(path: Path, *extra: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]], str]:
    """(the steps of `run --replay path -p openai -f json`, the notes of its first step, the pretty output at 80)."""
    shown = run_cli(["run", "--replay", str(path), "-p", "openai", "-f", "json", *extra])
    assert shown.returncode in (0, 4), shown.stderr
    pretty = run_cli(["run", "--replay", str(path), "-p", "openai", *extra],
                     env={"COLUMNS": "80", "NO_COLOR": "1", "TERM": "dumb", "PATH": ""})
    for text in (shown.stdout, shown.stderr, pretty.stdout, pretty.stderr):
        assert "adversarial18bKey" not in text and "Traceback" not in text
    loop = json.loads(shown.stdout)["runs"][0]["loops"][0]
    return loop["steps"], loop["steps"][0]["ledger"], pretty.stdout


def _sent_per_step(steps: list[dict[str, Any]]) -> list[tuple[Any, list[str]]]:
    return [(s["request"]["body"].get("tool_choice", "(none)"),
             [t["function"]["name"] for t in s["request"]["body"].get("tools", ())]) for s in steps]


def _recorded_per_step(bodies: list[dict[str, Any]]) -> list[tuple[Any, list[str]]]:
    return [(b.get("tool_choice", "(none)"), [t["function"]["name"] for t in b.get("tools", ())]) for b in bodies]


def test_a_step_that_sent_no_tool_choice_replays_sending_none(tmp_path: Path, no_socket: list[str]) -> None:
    """Step 1 forced a call (required); step 2, the result sent back, set no tool_choice (the API's default). The
    replay sent `required` again at step 2 (step 1's, the scenario's), and judged the recorded text answer a
    violation of a choice the app never sent: a step without tool_choice in the HAR now sends none."""
    path, bodies = _recorded(tmp_path, "unset", [{"tools": OPENAI_TOOLS, "tool_choice": "required"},
                                                 {"tools": OPENAI_TOOLS}])
    assert "tool_choice" not in bodies[1]
    dry = run_cli(["run", "--replay", str(path), "-p", "openai", "--dry-run", "-f", "json"])
    assert dry.returncode == 0, dry.stderr
    assert json.loads(dry.stdout)["translations"][0]["request"]["body"]["tool_choice"] == "required"
    steps, _, pretty = _replayed(path)
    assert _sent_per_step(steps) == _recorded_per_step(bodies)
    assert len(steps) == 2 and steps[1]["verdict"]["obeyed"] is True
    assert "no_call" not in pretty


def test_each_step_offers_the_tools_its_call_offered(tmp_path: Path, no_socket: list[str]) -> None:
    """Step 1 offered get_weather alone; step 2 get_weather and get_time. The replay offered both at step 1 too (the
    tools of every call, declared once, were step 1's as well): each step now offers what its call offered."""
    weather = [t for t in OPENAI_TOOLS if t["function"]["name"] == "get_weather"]
    path, bodies = _recorded(tmp_path, "tools", [{"tools": weather, "tool_choice": "auto"},
                                                 {"tools": OPENAI_TOOLS, "tool_choice": "auto"}])
    assert len(bodies[0]["tools"]) == 1 < len(bodies[1]["tools"])
    steps, _, _ = _replayed(path)
    assert _sent_per_step(steps) == _recorded_per_step(bodies)


def test_a_later_steps_own_settings_are_said_not_dropped(tmp_path: Path, no_socket: list[str]) -> None:
    """Step 2 was sent with a temperature step 1 did not set, and a tool_choice with no neutral form (it names a
    function no tool declares: kept in providers.openai.extra). The loop sends step 1's settings at every step, so
    step 2 went out without them and nothing said so; now a warning names each and what the replay sends."""
    path, bodies = _recorded(tmp_path, "settings", [
        {"tools": OPENAI_TOOLS, "tool_choice": "auto"},
        {"tools": OPENAI_TOOLS, "tool_choice": {"type": "function", "function": {"name": "not_declared"}},
         "temperature": 0.25}])
    assert bodies[1]["temperature"] == 0.25
    steps, ledger, pretty = _replayed(path)
    said = [e["message"] for e in ledger if e["code"] == "har.step_settings"]
    assert len(said) == 1 and "step 2 (log.entries[1])" in said[0], ledger
    assert "temperature 0.25 (step 1: not set)" in said[0] and "not_declared" in said[0]
    assert "temperature" not in steps[1]["request"]["body"]  # what the note says: step 1's settings are sent
    assert "har.step_settings" in pretty


@pytest.mark.parametrize(("edit", "said"), [
    (lambda h: [*h, {"role": "user", "content": "Reminder: one word."}], "a user message at messages[3]"),
    (lambda h: [{"role": "system", "content": "Injected at step 2."}, *h], "another system prompt"),
    (lambda h: [h[0], h[1], {**h[2], "content": "sunny (cut by the app)"}], None),  # a result as sent: replayed so
], ids=["added-user-turn", "injected-system", "edited-result"])
def test_a_history_the_app_changed_between_calls_is_said(tmp_path: Path, no_socket: list[str], edit: Any,
                                                          said: str | None) -> None:
    """The app added a reminder after the tool result, or a system prompt, at its second call. The replay sent the
    loop's history (step 1's messages, the reply, the result) and nothing said the recorded call held more; now a
    warning names what it sent besides. A result the app edited is the result replayed: no warning."""
    path, bodies = _recorded(tmp_path, "history", [{"tools": OPENAI_TOOLS, "tool_choice": "auto"}] * 2,
                             edit={1: edit})
    steps, ledger, pretty = _replayed(path)
    assert len(steps) == 2
    notes = [e["message"] for e in ledger if e["code"] == "har.history_differs"]
    if said is None:
        assert notes == [] and steps[1]["request"]["body"]["messages"][-1]["content"] == "sunny (cut by the app)"
        return
    assert len(notes) == 1 and said in notes[0] and "step 2 (log.entries[1])" in notes[0], ledger
    assert len(steps[1]["request"]["body"]["messages"]) < len(bodies[1]["messages"])  # what the note says
    assert "har.history_differs" in pretty


def test_a_later_calls_parallel_setting_and_tool_definition_are_said(tmp_path: Path, no_socket: list[str]) -> None:
    """Step 2 set parallel_tool_calls false (step 1 did not) and described get_weather otherwise. The loop has one
    parallel setting and one definition a tool, step 1's: both went unsaid (tests/data/har/sdk-session.har's
    conversation 1 is such a pair)."""
    changed = [{"type": "function", "function": {**t["function"], "description": "Weather, in Celsius."}}
               if t["function"]["name"] == "get_weather" else t for t in OPENAI_TOOLS]
    path, bodies = _recorded(tmp_path, "parallel", [{"tools": OPENAI_TOOLS, "tool_choice": "auto"},
                                                    {"tools": changed, "tool_choice": "auto",
                                                     "parallel_tool_calls": False}])
    assert bodies[1]["parallel_tool_calls"] is False and "parallel_tool_calls" not in bodies[0]
    steps, ledger, _ = _replayed(path)
    said = {e["code"]: e["message"] for e in ledger}
    assert "parallel_tool_calls false (step 1: not set)" in said["har.step_settings"], said
    assert "declared get_weather otherwise" in said["har.tool_differs"]
    assert "parallel_tool_calls" not in steps[1]["request"]["body"]  # what the notes say is sent


def test_calls_after_the_loop_ended_are_said_not_replayed(tmp_path: Path, no_socket: list[str]) -> None:
    """Step 2's reply was a text answer and the user then asked again (a third call, the same conversation in
    `trace FILE.har`). The loop ends at a text answer, so the third call was never replayed while the ledger said
    "3 calls ... replayed as the loop's steps"; now the note counts the calls replayed and a warning names the
    others."""
    path, bodies = _recorded(tmp_path, "followup", [{"tools": OPENAI_TOOLS, "tool_choice": "auto"}] * 3, texts=(1,))
    assert bodies[2]["messages"][-1] == {"role": "user", "content": "And tomorrow?"}
    listed = run_cli(["trace", str(path), "-f", "json"])
    assert {row["conversation"] for row in json.loads(listed.stdout)["samples"]} == {1}
    steps, ledger, pretty = _replayed(path)
    assert len(steps) == 2
    said = {e["code"]: e["message"] for e in ledger}
    assert "2 calls to openai (log.entries[0, 1])" in said["har.replayed"], said
    assert "log.entries[2]" in said["har.not_replayed"] and "not replayed" in said["har.not_replayed"]
    assert "har.not_replayed" in pretty


# ---- LiteLLM's anthropic/ route: extra is nested (dialect.extra_fields), so nothing of it is judged as sent -------

NESTED_EXTRA = """\
tools:
  - {name: get_weather, description: Weather, parameters: {type: object, properties: {city: {type: string}}}}
  - {name: get_time, description: Time, parameters: {type: object, properties: {}}}
messages:
  - {role: user, content: Weather in Paris?}
tool_choice: required
parallel_tool_calls: true
providers:
  anthropic:
    extra: {tool_choice: {type: tool, name: get_time, disable_parallel_tool_use: true}}
"""


@pytest.mark.parametrize("dialect", ["litellm", "openai-agents"])
def test_a_nested_extras_parallel_setting_is_not_judged_as_sent(tmp_path: Path, dialect: str) -> None:
    """extra's Anthropic tool_choice sets disable_parallel_tool_use; LiteLLM's anthropic/ route sends extra whole as
    a field named extra_body (dialect.extra_fields, recorded with litellm 1.110.2 in tests/test_dialect_extra_choice.py)
    and its own tool_choice, {"type": "any", "disable_parallel_tool_use": false}. The view's sent_parallel still said
    `false, from extra` (the API request's), and compare's parallel cell `extra false`, beside a wire that allows
    parallel calls: what the view says is sent must be what its body sends."""
    scenario = tmp_path / "nested.yaml"
    scenario.write_text(NESTED_EXTRA, encoding="utf-8")
    shown = run_cli(["render", str(scenario), "-p", "anthropic", "--dialect", dialect, "-f", "json"])
    assert shown.returncode == 0, shown.stderr
    view = json.loads(shown.stdout)
    view = view["translations"][0] if "translations" in view else view
    body = view["request"]["body"]
    written = {"type": "tool", "name": "get_time", "disable_parallel_tool_use": True}
    assert body["extra_body"] == {"tool_choice": written}
    sent = body["tool_choice"].get("disable_parallel_tool_use")
    assert sent is False
    assert view["sent_parallel"] is None or view["sent_parallel"]["parallel_tool_calls"] is (not sent), view
    cells = run_cli(["compare", str(scenario), "-p", "anthropic", "--dialect", dialect],
                    env={"COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb", "PATH": ""})
    assert cells.returncode == 0, cells.stderr
    assert "extra false" not in cells.stdout


# ---- compare: a cell of user text never reads as a refusal ---------------------------------------------------------

def test_a_sent_choice_spelled_like_the_refused_marker_is_not_a_refused_row(tmp_path: Path) -> None:
    """extra writes tool_choice: REFUSED (a word the API may refuse, but one the request sends). The row read
    `REFUSED`, the word compare draws (in red) for a provider that sends nothing, and was left out of the count for
    marks as refused rows now are; the sent word is drawn as the JSON string it is."""
    scenario = tmp_path / "marker.yaml"
    scenario.write_text("tools:\n  - {name: get_weather, description: Weather, parameters: {type: object}}\n"
                        "messages:\n  - {role: user, content: hi}\ntool_choice: required\n"
                        "providers:\n  openai:\n    extra: {tool_choice: REFUSED}\n", encoding="utf-8")
    sent = run_cli(["compare", str(scenario), "-p", "openai,anthropic", "-f", "json"])
    assert sent.returncode == 0, sent.stderr
    assert json.loads(sent.stdout)["providers"][0]["request"]["body"]["tool_choice"] == "REFUSED"  # it is sent
    for form in (["-f", "markdown"], []):
        shown = run_cli(["compare", str(scenario), "-p", "openai,anthropic", *form],
                        env={"COLUMNS": "100", "NO_COLOR": "1", "TERM": "dumb", "PATH": ""})
        assert shown.returncode == 0, shown.stderr
        row = next(line for line in shown.stdout.splitlines() if "openai" in line and "api.openai.com" in line)
        assert '"REFUSED"' in row, row


def test_a_saved_har_replay_given_back_points_at_a_command_that_runs(tmp_path: Path, no_socket: list[str]) -> None:
    """`run --replay FILE.har --save DIR`, then `run DIR/.../scenario.yaml --replay DIR/...` (the transcript, not a
    scenario it started from): the line's hint said `toolchoice run FILE.har --replay DIR`, which reads the HAR as a
    scenario and fails ("unknown key 'log'"). It now says to replay the recording, and that command runs."""
    path, _ = _recorded(tmp_path, "saved", [{"tools": OPENAI_TOOLS, "tool_choice": "required"},
                                            {"tools": OPENAI_TOOLS, "tool_choice": "auto"}])
    saves = tmp_path / "saves"
    ran = run_cli(["run", "--replay", str(path), "-p", "openai", "--save", str(saves)])
    assert ran.returncode == 0, ran.stderr
    loop = saves / "openai" / "loop-001"
    refused = run_cli(["run", str(loop / "scenario.yaml"), "--replay", str(loop), "-p", "openai"])
    assert refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1, refused.stderr
    hinted = refused.stderr.split("toolchoice run ")[-1].split(" (and")[0].rstrip(")\n")
    assert hinted == f"--replay {path} -p openai", refused.stderr
    again = run_cli(["run", *hinted.split()])
    assert again.returncode == 0, again.stderr
