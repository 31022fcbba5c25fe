"""loop.narrow: allowed on Anthropic with the mid-conversation tool changes beta (providers/anthropic_tool_changes.py).

The truth is the SDK's beta request types (anthropic 2.14.0): the role: system message is
``types/beta/beta_system_message_param.py`` BetaSystemMessageParam, whose content blocks are
``beta_request_tool_removal_block_param.py`` / ``beta_request_tool_addition_block_param.py`` with a
``beta_tool_change_tool_reference_param.py`` tool; the whole body is ``types/beta/message_create_params.py``
MessageCreateParamsNonStreaming (the non-beta params refuse a system role, so the check can fail); the beta name is in
``types/anthropic_beta_param.py``. The wire check runs `run` against the stand-in server on 127.0.0.1
(tests/servers.py, answering with the recorded Anthropic reply) and reads what each step received.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from sdk_types import check, missing  # noqa: E402
from test_loop_policy import codes, narrow_steps, run_on, scenario  # noqa: E402

from toolchoice.providers import anthropic_mock, translate  # noqa: E402
from toolchoice.providers.core import loop_lint, loop_policy  # noqa: E402
from toolchoice.providers.core.model import HistoryCall, Message, RenderOptions  # noqa: E402
from toolchoice.providers.core.scenario import load_scenario_text  # noqa: E402

BETA = "mid-conversation-tool-changes-2026-07-01"
OPT_IN = f"providers:\n  anthropic:\n    headers: {{anthropic-beta: {BETA}}}\n"
TOOLS = ["weather", "search", "final_answer"]
THREE = ["{tool_choice: required, tools: [weather]}", "{tool_choice: auto, tools: [weather, search]}",
         "{tool_choice: auto}"]


def _doc(steps: list[str], head: str = OPT_IN, messages: str = "  - {role: user, content: weather in SF}\n",
         model: str = "") -> Any:
    tools = "".join(f"  - {{name: {n}, description: tool {n}, parameters: {{type: object}}}}\n" for n in TOOLS)
    listed = "".join(f"    - {s}\n" for s in steps)
    text = (f"{head}{model}tools:\n{tools}tool_choice: auto\nmessages:\n{messages}loop:\n  max_steps: {len(steps)}\n"
            f"  narrow: allowed\n  steps:\n{listed}  results: {{weather: sunny, search: found}}\n")
    return load_scenario_text(text, "s.yaml")


def _bodies(doc: Any, steps: int, provider: str = "anthropic") -> list[Any]:
    """Each step's translation, each reply calling weather (as the loop's history carries it)."""
    history, out = list(doc.messages), []
    for number in range(1, steps + 1):
        out.append(translate(provider, loop_policy.step_scenario(doc, number, history)))
        history.append(Message("assistant", None, tool_calls=(HistoryCall(f"toolu_{number}", "weather", {}),)))
        history.append(Message("tool", "sunny", tool_call_id=f"toolu_{number}", tool_name="weather"))
    return out


def _change(kind: str, name: str) -> dict[str, Any]:
    return {"type": kind, "tool": {"type": "tool_reference", "name": name}}


# ---- the bodies, held to the SDK's beta types --------------------------------------------------------


@pytest.mark.skipif(missing("anthropic"), reason="anthropic's beta request types")
def test_each_step_keeps_every_tool_and_says_the_changes_as_the_beta_types_put_them() -> None:
    from anthropic.types.anthropic_beta_param import AnthropicBetaParam
    from anthropic.types.beta import BetaSystemMessageParam
    from anthropic.types.beta.message_create_params import MessageCreateParamsNonStreaming as BetaParams
    from anthropic.types.message_create_params import MessageCreateParamsNonStreaming as Params

    from test_sdk_claims import literals

    translations = _bodies(_doc(THREE), 3)
    bodies = [t.request.body for t in translations]
    assert [[tool["name"] for tool in b["tools"]] for b in bodies] == [TOOLS] * 3  # tools never change
    assert [b["tool_choice"] for b in bodies] == [{"type": "any"}, {"type": "auto"}, {"type": "auto"}]
    first, second, third = (b["messages"] for b in bodies)
    assert first == [{"role": "user", "content": "weather in SF"},
                     {"role": "system", "content": [_change("tool_removal", "search"),
                                                    _change("tool_removal", "final_answer")]}]
    assert second[:2] == first and second[4] == {"role": "system", "content": [_change("tool_addition", "search")]}
    assert [m["role"] for m in second] == ["user", "system", "assistant", "user", "system"]
    assert third[:5] == second and third[7] == {"role": "system", "content": [_change("tool_addition",
                                                                                      "final_answer")]}
    for body in bodies:
        assert check(body, BetaParams) == []
        for message in body["messages"]:
            if message["role"] == "system":
                assert check(message, BetaSystemMessageParam) == []
    assert check(bodies[0], Params) != []  # the GA params have no system role: the beta types are the check
    assert BETA in literals(AnthropicBetaParam)
    assert all(t.request.headers["anthropic-beta"] == BETA for t in translations)
    for t in translations:
        assert "loop.tool_changes" in codes({"ledger": [e.to_json() for e in t.ledger]})
        assert "tool_choice.emulated" not in [e.code for e in t.ledger]
    assert translations[0].requested_tool_choice == {"allowed": ["weather"], "mode": "required"}  # what the step asked


def test_without_the_opt_in_the_bytes_are_the_ones_removal_sends() -> None:
    for head in ("", "providers:\n  anthropic:\n    headers: {anthropic-beta: context-1m-2025-08-07}\n"):
        doc = _doc(THREE, head=head)
        history = list(doc.messages)
        for number, t in enumerate(_bodies(doc, 2), 1):
            s = loop_policy.step_scenario(doc, number, history)
            bare = translate("anthropic", s._replace(tool_steps=()))  # as before the field existed
            assert t.request.body == bare.request.body and t.request.headers == bare.request.headers
            assert all(m["role"] != "system" for m in t.request.body["messages"])
            assert "tool_choice.emulated" in [e.code for e in t.ledger]
            history += [Message("assistant", None, tool_calls=(HistoryCall(f"toolu_{number}", "weather", {}),)),
                        Message("tool", "sunny", tool_call_id=f"toolu_{number}", tool_name="weather")]
    assert [[x["name"] for x in t.request.body["tools"]] for t in _bodies(_doc(THREE, head=""), 2)] == [
        ["weather"], ["weather", "search"]]


def test_a_beta_header_read_from_the_environment_is_said_where_a_step_is_sent_by_removal() -> None:
    """The header's $NAME is read only when sent: the request is the removal one, and the ledger says why."""
    from_env = "providers:\n  anthropic:\n    headers: {anthropic-beta: $MY_BETAS}\n"
    allowed = RenderOptions(allow_env=("MY_BETAS",))  # else the header's $NAME is an env.not_allowed error
    doc = _doc(THREE[:1], head=from_env)
    t = translate("anthropic", loop_policy.step_scenario(doc, 1, list(doc.messages)), allowed)
    assert [x["name"] for x in t.request.body["tools"]] == ["weather"]
    assert t.request.headers["anthropic-beta"] == "$MY_BETAS"
    [entry] = [e for e in t.ledger if e.code == "loop.tool_changes_unread"]
    assert entry.severity == "warning" and "$MY_BETAS" in entry.message and BETA in entry.message
    assert "tool_choice.emulated" in [e.code for e in t.ledger]
    for head in (OPT_IN, "", "providers:\n  anthropic:\n    headers: {anthropic-beta: context-1m-2025-08-07}\n"):
        [t] = _bodies(_doc(THREE[:1], head=head), 1)
        assert "loop.tool_changes_unread" not in [e.code for e in t.ledger]
    every = "{tool_choice: auto, tools: [weather, search, final_answer]}"
    doc = _doc([every], head=from_env)
    t = translate("anthropic", loop_policy.step_scenario(doc, 1, list(doc.messages)), allowed)  # no step narrows: nothing the beta would change
    assert "loop.tool_changes_unread" not in [e.code for e in t.ledger]


def test_a_beta_among_others_opts_in_and_a_history_ending_with_the_assistant_does_not_get_blocks() -> None:
    listed = f"providers:\n  anthropic:\n    headers: {{Anthropic-Beta: 'context-1m-2025-08-07, {BETA}'}}\n"
    [t] = _bodies(_doc(THREE[:1], head=listed), 1)
    assert t.request.body["messages"][1]["role"] == "system"
    assert t.request.headers["Anthropic-Beta"] == f"context-1m-2025-08-07, {BETA}"  # as the user wrote it
    prefill = "  - {role: user, content: weather in SF}\n  - {role: assistant, content: Let me check}\n"
    [t] = _bodies(_doc(THREE[:1], messages=prefill), 1)
    # a system message right after Claude's turn is a 400 (fact anthropic.tool_changes_thinking): removal instead
    assert [m["role"] for m in t.request.body["messages"]] == ["user", "assistant"]
    assert [x["name"] for x in t.request.body["tools"]] == ["weather"]


def test_the_mcp_connector_beta_joins_the_users_list() -> None:
    mcp = {"type": "mcp", "server_label": "docs", "server_url": "https://d.example/mcp", "require_approval": "never"}
    for written, sent in ((BETA, f"{BETA},mcp-client-2025-11-20"),
                          (f"{BETA},mcp-client-2025-11-20", f"{BETA},mcp-client-2025-11-20")):
        doc = {"tools": [{"name": "get_time"}, mcp], "messages": [{"role": "user", "content": "hi"}],
               "providers": {"anthropic": {"headers": {"anthropic-beta": written}}}}
        t = translate("anthropic", load_scenario_text(json.dumps(doc), "s.yaml"))
        assert t.request.headers["anthropic-beta"] == sent
    doc.pop("providers")
    assert translate("anthropic", load_scenario_text(json.dumps(doc), "s.yaml")).request.headers[
        "anthropic-beta"] == "mcp-client-2025-11-20"


def test_a_request_rendered_without_its_history_says_the_change_once() -> None:
    """--dry-run and the loop's findings render step k with the scenario's own messages: one system message."""
    doc = _doc(THREE)
    s = loop_policy.step_scenario(doc, 2, doc.messages)
    body = translate("anthropic", s).request.body
    assert body["messages"][1:] == [{"role": "system", "content": [_change("tool_removal", "final_answer")]}]


# ---- the preserved-thinking warning -------------------------------------------------------------------


def test_the_blocks_keep_the_thinking_prefix_so_the_warning_stays_quiet() -> None:
    """Changing tools invalidates later thinking; the blocks are the documented way out (fact
    anthropic.tool_changes_thinking): on a model that runs the prefix check the warning fires without the opt-in and
    not with it."""
    steps = ["{tool_choice: auto, tools: [weather]}", "{tool_choice: auto}"]
    model = "  anthropic:\n    model: claude-sonnet-5-5\n"
    found = {}
    for label, head in (("blocks", OPT_IN + "    model: claude-sonnet-5-5\n"), ("removal", "providers:\n" + model)):
        doc = _doc(steps, head=head)
        found[label] = [e for e in loop_lint.static(doc, "anthropic", RenderOptions(), results=False)
                        if e.code == "loop.tools_changed_with_thinking"]
    assert found["blocks"] == []
    assert found["removal"] and "mid-conversation-tool-changes-2026-07-01" in found["removal"][0].message


# ---- the mock reads them ---------------------------------------------------------------------------


def test_the_mock_folds_the_changes_over_the_tools() -> None:
    bodies = [t.request.body for t in _bodies(_doc(THREE), 3)]
    offered = [tuple(t.name for t in anthropic_mock.mock_read(b, {}).tools) for b in bodies]
    assert offered == [("weather",), ("weather", "search"), tuple(TOOLS)]
    read = anthropic_mock.mock_read(bodies[1], {})
    assert [m.role for m in read.messages] == ["user", "assistant", "tool"]  # the system messages are no turn


# ---- on the wire: what each step of `run` received ---------------------------------------------------


def test_run_sends_the_changes_step_by_step(tmp_path: Path) -> None:
    path = scenario(tmp_path, "anthropic", narrow_steps("anthropic"), "  narrow: allowed\n", head=OPT_IN)
    doc, requests = run_on("anthropic", path)
    assert [[x["name"] for x in r["tools"]] for r in requests] == [["weather", "search", "final_answer"]] * 2
    assert [r["tool_choice"] for r in requests] == [{"type": "any"}, {"type": "auto"}]
    one, two = (r["messages"] for r in requests)
    assert one[1] == {"role": "system", "content": [_change("tool_removal", "search"),
                                                    _change("tool_removal", "final_answer")]}
    assert two[:2] == one  # step 2 is step 1 with messages appended
    assert [m["role"] for m in two] == ["user", "system", "assistant", "user", "system"]
    assert two[4] == {"role": "system", "content": [_change("tool_addition", "search")]}
    steps = doc["runs"][0]["loops"][0]["steps"]
    assert all("loop.tool_changes" in codes(s) and "tool_choice.emulated" not in codes(s) for s in steps)
    assert [s["verdict"]["category"] for s in steps] == ["obeyed", "obeyed"]


@pytest.mark.skipif(missing("anthropic"), reason="anthropic-python's beta client")
@pytest.mark.parametrize("how,code", [("blocks", None), ("tools", "mock.tools_changed_with_thinking")])
def test_the_mock_answers_the_sdks_beta_requests_and_keeps_the_prefix_finding_true(how: str, code: str | None) -> None:
    """anthropic-python's beta client sends the blocks (betas=[...]) to the mock on 127.0.0.1: the removed tool is
    not called, and on a model that runs the prefix check the tools the body declares are what the thinking's
    prefix holds: the same tools with blocks say nothing, changed tools say mock.tools_changed_with_thinking."""
    from anthropic import Anthropic

    from toolchoice.providers.core.mock.server import running_mock

    schema = {"type": "object", "properties": {"city": {"type": "string"}}}
    search, weather = ({"name": n, "description": n, "input_schema": schema} for n in ("search", "get_weather"))
    user = {"role": "user", "content": "Weather in Paris?"}
    with running_mock("anthropic") as mock:
        client = Anthropic(base_url=mock.base_url, api_key="sk-test-tool-changes-0123456789", max_retries=0)

        def ask(messages: list[Any], tools: list[Any]) -> Any:
            return client.beta.messages.create(model="claude-sonnet-5-5", max_tokens=4000, messages=messages,
                                               tools=tools, tool_choice={"type": "auto"},
                                               thinking={"type": "adaptive"}, betas=[BETA])

        first = [user, {"role": "system", "content": [_change("tool_removal", "search")]}]
        reply = ask(first, [search, weather])
        [call] = [b for b in reply.content if b.type == "tool_use"]
        assert call.name == "get_weather"  # search was removed before this turn
        turn = {"role": "assistant", "content": [b.model_dump(exclude_none=True) for b in reply.content]}
        result = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call.id, "content": "sunny"}]}
        if how == "blocks":
            ask([*first, turn, result, {"role": "system", "content": [_change("tool_addition", "search")]}],
                [search, weather])
        else:
            ask([*first, turn, result], [weather])
    one, two = mock.records
    assert one["offered_tools"] == ["get_weather"] and two["reasoning_from"] == [1]
    said = [f["code"] for f in two["findings"] if f["code"].endswith("_changed_with_thinking")]
    assert said == ([code] if code else [])


def test_the_mock_does_not_refuse_a_named_choice_of_a_withdrawn_tool_without_a_source() -> None:
    """A named tool_choice of a tool the body declares and a tool_removal block withdrew got the mock's 400 "not a
    declared tool (declared: get_weather)": the tool is declared, and no source says whether the API refuses that
    (the SDK's tool runner: removal "is only a hint to the model"). It is passed unjudged and said; a name the body
    never declares is still refused."""
    import httpx

    from toolchoice.providers.core.mock.server import running_mock

    schema = {"type": "object", "properties": {"city": {"type": "string"}}}
    body = {"model": "claude-sonnet-5-5", "max_tokens": 400, "tool_choice": {"type": "tool", "name": "search"},
            "tools": [{"name": n, "description": n, "input_schema": schema} for n in ("search", "get_weather")],
            "messages": [{"role": "user", "content": "hi"},
                         {"role": "system", "content": [_change("tool_removal", "search")]}]}
    headers = {"x-api-key": "sk-test-tool-changes-0123456789", "anthropic-version": "2023-06-01",
               "anthropic-beta": BETA}
    with running_mock("anthropic") as mock:
        answered = httpx.post(mock.base_url + "/v1/messages", json=body, headers=headers)
        undeclared = httpx.post(mock.base_url + "/v1/messages", headers=headers,
                                json={**body, "tool_choice": {"type": "tool", "name": "nowhere"}})
    assert answered.status_code == 200, answered.text
    assert [b["name"] for b in answered.json()["content"] if b["type"] == "tool_use"] != ["search"]
    assert undeclared.status_code == 400 and "'nowhere'" in undeclared.json()["error"]["message"]
    assert "(declared: search, get_weather)" in undeclared.json()["error"]["message"]  # the body's, not those in effect
