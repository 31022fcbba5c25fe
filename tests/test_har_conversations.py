"""`toolchoice trace FILE.har` follows the file's calls as the mock follows a session of requests
(providers/core/har_conversations.py): which calls are steps of one conversation, and what broke between them.

Truth from outside the code: openai-python and anthropic-python run real agent loops at their own hosts
(api.openai.com, api.anthropic.com), answered by `toolchoice mock` on 127.0.0.1 through an httpx transport that
keeps each exchange (tests/har_recorder.py), their turns sent back as the SDKs dump them. The mock's own record of
the same requests (``Running.records``: its findings) is what the listing must say for each call; which conversation
each call belongs to is the loop the test ran it in; a repeated call is the one the SDKs parsed twice. The loops: a
framework that narrows the tools mid-loop on a Claude model with thinking and changes its system prompt at the last
step and trims its history at the next (the preserved-thinking prefix check), and an OpenAI loop that forces a tool
after each result and at its last step offers only another tool than the one its history calls (the required trap),
interleaved with the Claude loop and followed by a plain chat of two calls."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterator, NamedTuple

import pytest

from cli import run_cli
from har_recorder import ANTHROPIC_TOOLS, OPENAI_TOOLS, QUESTION, RESULT, SYSTEM, Exchange, Forward, har, httpx
from toolchoice.providers import running_mock

KEY = "sk-test-har-loops-0123456789abcdef"
MODEL = "claude-sonnet-5-5"  # its rule runs Anthropic's preserved-thinking prefix check (thinking_prefix_check)
# the findings between steps (the mock's codes; loop.repeated_call is run's)
BETWEEN = re.compile(r"^(mock\.(tools|system|history)_changed_with_thinking|mock\.result_dropped"
                     r"|pitfall\.(forced_after_tool_result|required_trap|history_tools_not_offered))$")


class Recorded(NamedTuple):
    path: Path
    owners: list[tuple[str, int]]  # per sample: (the mock that answered it, its request number there)
    loops: list[str]  # per sample: the loop it was sent in
    records: dict[str, list[dict[str, Any]]]  # the mocks' lines
    called: list[list[tuple[str, Any]]]  # per sample: the calls the SDK parsed (name, arguments)


class Kept(Forward):
    """Forward, noting the port of the mock that answered each exchange (``ports``)."""

    ports: list[int]

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.ports.append(self.target.port)
        return super().handle_request(request)


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Recorded]:
    import anthropic
    import openai

    exchanges: list[Exchange] = []
    ports: list[int] = []
    loops: list[str] = []
    called: list[list[tuple[str, Any]]] = []
    with running_mock("openai") as gpt, running_mock("anthropic") as claude:
        def client(base: str) -> httpx.Client:
            root = httpx.URL(base)
            transport = Kept(f"{root.scheme}://{root.host}:{root.port}", exchanges)
            transport.ports = ports
            return httpx.Client(transport=transport)

        chat = openai.OpenAI(api_key=KEY, max_retries=0, http_client=client(gpt.base_url))
        messages = anthropic.Anthropic(api_key=KEY, max_retries=0, http_client=client(claude.base_url))

        def ask_claude(history: list[Any], tools: list[Any], system: str) -> Any:
            reply = messages.messages.create(model=MODEL, max_tokens=4000, system=system, messages=history,
                                             tools=tools, tool_choice={"type": "auto"},
                                             thinking={"type": "adaptive"})
            loops.append("claude")
            called.append([(b.name, b.input) for b in reply.content if b.type == "tool_use"])
            return reply

        def ask_gpt(history: list[Any], choice: Any, loop: str, tools: list[Any] = OPENAI_TOOLS) -> Any:
            reply = chat.chat.completions.create(model="gpt-4o-mini", messages=history, tools=tools,
                                                 tool_choice=choice)
            loops.append(loop)
            called.append([(c.function.name, json.loads(c.function.arguments))
                           for c in reply.choices[0].message.tool_calls or ()])
            return reply

        def claude_step(history: list[Any], reply: Any) -> list[Any]:
            turn = {"role": "assistant", "content": [b.model_dump(exclude_none=True) for b in reply.content]}
            results = [{"type": "tool_result", "tool_use_id": b.id, "content": RESULT}
                       for b in reply.content if b.type == "tool_use"]
            return [*history, turn, {"role": "user", "content": results or "And tomorrow?"}]  # a text answer: the
            # user goes on

        def gpt_step(history: list[Any], reply: Any) -> list[Any]:
            message = reply.choices[0].message
            return [*history, message.model_dump(exclude_none=True),
                    *({"role": "tool", "tool_call_id": c.id, "content": RESULT} for c in message.tool_calls or ())]

        # step 1 of each loop: Claude offered both tools; GPT forced to call
        c_history = [{"role": "user", "content": QUESTION}]
        c1 = ask_claude(c_history, ANTHROPIC_TOOLS, SYSTEM)
        assert c1.content[0].type == "thinking" and c1.content[0].signature  # thinking to send back
        g_history = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": QUESTION}]
        g1 = ask_gpt(g_history, "required", "gpt")
        # step 2: the framework narrows Claude's tools to the one it called; GPT forced again after the result
        c_history = claude_step(c_history, c1)
        c2 = ask_claude(c_history, ANTHROPIC_TOOLS[:1], SYSTEM)
        g_history = gpt_step(g_history, g1)
        g2 = ask_gpt(g_history, "required", "gpt")
        # step 3: Claude's system prompt gets the date; GPT still forced, offered get_time alone now (the required
        # trap: the history calls get_weather, no longer offered)
        c_history = claude_step(c_history, c2)
        c3 = ask_claude(c_history, ANTHROPIC_TOOLS[:1], SYSTEM + " Today is Friday.")
        ask_gpt(gpt_step(g_history, g2), "required", "gpt", OPENAI_TOOLS[1:])
        # step 4: the framework trims Claude's history to fit its context (the user's second question on)
        c_history = claude_step(c_history, c3)
        assert c_history[4] == {"role": "user", "content": "And tomorrow?"}
        ask_claude(c_history[4:], ANTHROPIC_TOOLS[:1], SYSTEM + " Today is Friday.")
        # an unrelated chat, the same system prompt, no tool called: its second call carries the first's messages
        # and its text answer (no id of the mock's to follow it by)
        o_history = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "Is it snowing in Tokyo?"}]
        o1 = ask_gpt(o_history, "none", "other")
        ask_gpt([*gpt_step(o_history, o1), {"role": "user", "content": "And tomorrow?"}], "none", "other")
        records = {"gpt": list(gpt.records), "claude": list(claude.records)}
        names = {httpx.URL(gpt.base_url).port: "gpt", httpx.URL(claude.base_url).port: "claude"}
    path = tmp_path_factory.mktemp("har") / "loops.har"
    path.write_text(json.dumps(har(exchanges)), encoding="utf-8")
    seen: dict[str, int] = {}
    owners = []
    for port in ports:
        seen[names[port]] = seen.get(names[port], 0) + 1
        owners.append((names[port], seen[names[port]]))
    yield Recorded(path, owners, loops, records, called)


def _listing(path: Path) -> list[dict[str, Any]]:
    shown = run_cli(["trace", str(path), "-f", "json"])
    assert shown.returncode == 0, shown.stderr
    return json.loads(shown.stdout)["samples"]


def _mock_said(recorded: Recorded, sample: int) -> list[dict[str, Any]]:
    """What the mock that answered ``sample`` said of it, between steps, its #N (its own numbering) written as the
    sample that N is in the file."""
    mock, number = recorded.owners[sample - 1]
    samples = {n: s for s, (m, n) in enumerate(recorded.owners, 1) if m == mock}
    line = recorded.records[mock][number - 1]
    return [{**f, "message": re.sub(r"#(\d+)", lambda m: f"#{samples[int(m.group(1))]}", f["message"])}
            for f in line["findings"] if BETWEEN.match(f["code"])]


def test_each_calls_findings_between_steps_are_what_the_mock_said_of_it(recorded: Recorded) -> None:
    """Per sample, the listing's findings (all but loop.repeated_call) are the mock's own for the same request, in
    the same words, #N naming the sample: the narrowed tools and the changed system prompt on Claude with thinking,
    the forced choice after each tool result on GPT."""
    rows = _listing(recorded.path)
    assert len(rows) == len(recorded.loops) == 9
    for row in rows:
        mine = [f for f in row.get("findings", ()) if f["code"] != "loop.repeated_call"]
        assert mine == _mock_said(recorded, row["sample"]), row["sample"]
    codes = [{f["code"] for f in row.get("findings", ())} - {"loop.repeated_call"} for row in rows]
    # the mock said these at all (else the test above holds nothing)
    assert "mock.tools_changed_with_thinking" in codes[2]  # Claude's step 2: its tools narrowed
    assert {"mock.tools_changed_with_thinking", "mock.system_changed_with_thinking"} <= codes[4]  # step 3
    assert "mock.history_changed_with_thinking" in codes[6]  # step 4: its history trimmed
    assert [("pitfall.forced_after_tool_result" in c) for c in codes] == [False, False, False, True, False, True,
                                                                         False, False, False]
    assert [("pitfall.required_trap" in c) for c in codes] == [False] * 5 + [True, False, False, False]


def test_calls_are_grouped_into_the_conversations_the_loops_were(recorded: Recorded) -> None:
    """The conversation of each call is the loop it was sent in (numbered in the file's order), each step continuing
    the previous call of its loop."""
    rows = _listing(recorded.path)
    numbers: dict[str, int] = {}
    for loop in recorded.loops:
        numbers.setdefault(loop, len(numbers) + 1)
    assert [r["conversation"] for r in rows] == [numbers[loop] for loop in recorded.loops]
    last: dict[str, int] = {}
    for row, loop in zip(rows, recorded.loops):
        assert row.get("continues") == last.get(loop) and row["step"] == (rows[last[loop] - 1]["step"] + 1
                                                                            if loop in last else 1), row
        last[loop] = row["sample"]


def test_a_repeated_call_is_said_where_the_sdk_parsed_the_same_call_twice(recorded: Recorded) -> None:
    """loop.repeated_call on a call whose reply makes the same call(s), tools and arguments, as the reply of the call
    it continues — as the SDKs parsed the replies."""
    rows = _listing(recorded.path)
    for row in rows:
        before = row.get("continues")
        same = before is not None and recorded.called[row["sample"] - 1] and \
            recorded.called[row["sample"] - 1] == recorded.called[before - 1]
        said = [f for f in row.get("findings", ()) if f["code"] == "loop.repeated_call"]
        assert bool(said) == bool(same), row
        if said:
            assert f"as #{before}'s reply" in said[0]["message"]
    assert any(f["code"] == "loop.repeated_call" for r in rows for f in r.get("findings", ()))


def test_a_sample_carries_its_findings_in_its_notes(recorded: Recorded) -> None:
    """--sample N: the call's scenario, its notes closed by what broke between it and the calls before it."""
    shown = run_cli(["trace", str(recorded.path), "--sample", "3", "-f", "json"])
    assert shown.returncode == 0, shown.stderr
    said = [f["code"] for f in _mock_said(recorded, 3)]
    assert said and all(f"warning {code}:" in shown.stderr for code in said)
    assert "loop.repeated_call" not in run_cli(["trace", str(recorded.path), "--sample", "1"]).stdout


@pytest.mark.parametrize("columns", ["80", "60"])
def test_the_listing_is_whole_at_80_and_60_columns(recorded: Recorded, columns: str, tmp_path: Path) -> None:
    """The pretty listing read back as YAML is the JSON listing: every finding whole, at either width; a system
    prompt holding rich markup and a YAML-looking text is shown as written, never read as markup."""
    import os

    import yaml

    har_doc = json.loads(recorded.path.read_text())
    for entry in har_doc["log"]["entries"]:  # every GPT call's arguments hold markup and YAML-looking text
        content = entry["response"]["content"]
        if entry["request"]["url"].endswith("/chat/completions"):
            reply = json.loads(content["text"])
            for call in reply["choices"][0]["message"].get("tool_calls") or ():
                call["function"]["arguments"] = json.dumps({"city": "[bold red]Oslo[/] #1: {x: y}"})
            content["text"] = json.dumps(reply)
    path = tmp_path / "markup.har"
    path.write_text(json.dumps(har_doc), encoding="utf-8")
    env = {**os.environ, "COLUMNS": columns, "NO_COLOR": "1"}
    text = run_cli(["trace", str(path)], env=env)
    assert text.returncode == 0, text.stderr
    listed = yaml.safe_load("\n".join(line for line in text.stdout.splitlines() if not line.startswith("#")))
    assert listed["samples"] == json.loads(run_cli(["trace", str(path), "-f", "json"], env=env).stdout)["samples"]
    repeated = [f["message"] for r in listed["samples"] for f in r.get("findings", ())
                if f["code"] == "loop.repeated_call"]
    assert repeated and all("[bold red]Oslo[/] #1: {x: y}" in m for m in repeated)
