"""`toolchoice probe --tool-choice V` asks the control question too: a server that fails every request is
"inconclusive" about V, not "rejects V" (docs/probe.md, "When the endpoint misbehaves").

The endpoints are stand-ins on 127.0.0.1 (tests/servers.py) whose answer depends only on what each request
asks (whether its body has a ``tool_choice``), so the truth a result is held to is the server's script: one
fails everything, one fails only requests with a tool_choice, one accepts all. What each got is counted
from the server's own record of the requests."""

from __future__ import annotations

import json
import os
import re
import threading

import pytest
from servers import StandIn, Step

from cli import run_cli
from toolchoice.providers.core import jobs, runner
from toolchoice.providers.core.model import RenderOptions
from toolchoice.providers.core.choice import parse_tool_choice
from toolchoice.providers.core.probe import probe_scenario

KEY = "sk-probe-control-0123456789"
QUICK = runner.SendSettings(timeout=5, retries=0)
# a call to get_time, the probe scenario's last tool (the one the named and forcing questions ask for)
CALL = {"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "m", "choices": [{
    "index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "get_time",
                                                          "arguments": '{"timezone": "Asia/Tokyo"}'}}]}}]}


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)


class ByRequest(StandIn):
    """Answers each request by what its own body asks (decided in the thread that received it)."""

    fails: str = "nothing"  # "everything", "tool_choice" (only requests with one), "nothing"

    def __init__(self) -> None:
        super().__init__("openai")
        self._answer = threading.local()

    def record(self, received) -> None:  # type: ignore[no-untyped-def]
        super().record(received)
        asks = "tool_choice" in received.json
        failing = self.fails == "everything" or (self.fails == "tool_choice" and asks)
        self._answer.step = (Step.error("openai", 500, "the server is down") if self.fails == "everything" else
                             Step.error("openai", 400, "tool_choice is not supported") if failing else
                             Step(body=CALL))

    def next_step(self) -> Step:
        return self._answer.step

    def asked(self) -> list[object]:
        """Each request's tool_choice, in order of arrival (None: the request had none)."""
        return [r.json.get("tool_choice") for r in self.requests]


def server(fails: str) -> ByRequest:
    stand_in = ByRequest()
    stand_in.fails = fails
    return stand_in


def choice(value):  # noqa: ANN001, ANN201
    """The neutral ToolChoice, as `--tool-choice VALUE` makes it for the built-in probe scenario."""
    scenario = probe_scenario()
    return parse_tool_choice(value, scenario.tool_names)


def probe(base_url: str, asked, repeat: int = 1) -> dict:  # noqa: ANN001
    return jobs.probe("openai", options=RenderOptions(base_url=base_url), repeat=repeat, settings=QUICK,
                      tool_choice=asked)


def by_feature(result: dict) -> dict[str, dict]:
    return {q["feature"]: q for q in result["questions"]}


def test_a_server_failing_everything_is_inconclusive_about_the_choice_asked():
    with server("everything") as stand_in:
        result = probe(stand_in.base_url(), choice("required"), repeat=2)
        asked = stand_in.asked()
    questions = by_feature(result)
    assert questions["required"]["result"] == "inconclusive", questions["required"]
    assert questions["any"]["result"] == "inconclusive", questions["any"]
    assert questions["required"]["evidence"].startswith("the question without tool_choice failed the same way "
                                                        "(status 500)")
    assert questions["unset"]["result"] == "rejected" and questions["unset"]["samples"] == 2
    # the control asked once (its 2 samples), beside required's and any's 2 each
    assert asked.count(None) == 2 and len(asked) == 6, asked
    assert not [f for f, v in result["overlay"]["features"].items() if f != "unset" and v["result"] == "rejected"]
    assert jobs.probe_code(result) == 1


def test_the_control_is_asked_once_for_every_question_of_a_named_choice():
    """A named choice is four questions (native, emulated, with history, a tiny max_tokens): one control."""
    with server("everything") as stand_in:
        result = probe(stand_in.base_url(), choice({"tool": "get_time"}))
        asked = stand_in.asked()
    questions = by_feature(result)
    assert asked.count(None) == 1, asked
    for feature in ("named", "named_emulated", "history", "truncation"):
        assert questions[feature]["result"] == "inconclusive", questions[feature]
    # named was not taken for rejected: the history question asked it by name, not with auto
    assert "with auto" not in questions["history"]["question"]
    assert len(asked) == 5, asked


def test_a_server_failing_only_the_choice_rejects_it():
    with server("tool_choice") as stand_in:
        result = probe(stand_in.base_url(), choice("required"))
        asked = stand_in.asked()
    questions = by_feature(result)
    assert questions["required"]["result"] == "rejected" and questions["any"]["result"] == "rejected"
    assert questions["unset"]["result"] == "honored"
    assert "without tool_choice" not in questions["required"]["evidence"]
    assert asked.count(None) == 1 and len(asked) == 3, asked
    assert result["overlay"]["features"]["required"]["result"] == "rejected"
    assert jobs.probe_code(result) == 0


def test_a_server_accepting_everything_is_not_asked_the_control():
    with server("nothing") as stand_in:
        result = probe(stand_in.base_url(), choice("required"))
        asked = stand_in.asked()
    assert [q["feature"] for q in result["questions"]] == ["required", "any"]
    assert all(q["result"] == "honored" for q in result["questions"])
    assert None not in asked and len(asked) == 2, asked
    assert jobs.probe_code(result) == 0


def cli_probe(base_url: str, columns: int, *extra: str):  # noqa: ANN201
    return run_cli(["probe", "-p", "openai", "--base-url", base_url, "--repeat", "1", "--retries", "0",
                    "--tool-choice", "required", *extra], env=dict(os.environ, COLUMNS=str(columns)))


def probe_table(stdout: str) -> tuple[list[str], dict[str, tuple[str, str]]]:
    """The lines of `probe`'s pretty table and each question's (result, evidence), in whichever layout it was
    drawn (cli/output.py fitted_table): bordered columns, borderless columns under a header rule, or one
    bordered record a row ("question\u00a0... · result\u00a0... · evidence\u00a0..."). A cell's lines are
    joined with a space (a word folded inside itself would show as two)."""
    lines = stdout.split("\nto use these answers, ")[0].splitlines()  # the table, without the next step under it
    records: list[list[list[str]]] = []  # each record: its cells, each cell its pieces
    if any(line.startswith("┏") for line in lines):  # bordered, a rule between rows
        table = [line for line in lines if line[:1] in "┏┃┡│├└"]
        for line in table:
            if line.startswith(("┡", "├")):
                records.append([[] for _ in range(5)])
            elif line.startswith("│") and records:
                for pieces, cell in zip(records[-1], line.split("│")[1:-1]):
                    pieces += [cell.strip()] if cell.strip() else []
        joined = [[" ".join(pieces) for pieces in record] for record in records]
        return table, {cells[0]: (cells[2], cells[3]) for cells in joined}
    if any(line.startswith("┌") for line in lines):  # one record a row
        table = [line for line in lines if line[:1] in "┌│├└"]
        text = ""
        for line in table:
            if line.startswith("│"):
                text += line[1:-1].strip() + " "
            elif text:
                records.append([[text.strip()]])
                text = ""
        found = {}
        for (text,), in records:
            # rich may break a line at the no-break space after a label: read as a space then
            match = re.fullmatch("question[\u00a0 ](.*) · wire[\u00a0 ](.*) · result[\u00a0 ](.*) · "
                                 "evidence[\u00a0 ](.*) · p50 ms[\u00a0 ]\\S+", text)
            assert match, text
            found[match[1]] = (match[3], match[4])
        return table, found
    rule = next(i for i, line in enumerate(lines) if line and set(line) == {"─"})  # borderless, under a rule
    header = lines[rule - 1]
    starts = [header.index(name) for name in ("question", "wire", "result", "evidence", "p50 ms")]
    table = lines[rule - 1:]
    record: list[list[str]] = []
    for line in lines[rule + 1:] + [""]:
        if not line.strip():
            if record:
                records.append(record)
            record = []
            continue
        cells = [line[a:b].strip() for a, b in zip(starts, starts[1:] + [len(line)])]
        record = record or [[] for _ in cells]
        for pieces, cell in zip(record, cells):
            pieces += [cell] if cell else []
    joined = [[" ".join(pieces) for pieces in record] for record in records]
    return table, {cells[0]: (cells[2], cells[3]) for cells in joined}


def assert_words_whole(table: list[str], words: list[str], columns: int) -> None:
    """Every word (a run of non-space characters) shorter than the width stands whole on one line of the table."""
    folded = [word for word in words if len(word) < columns and not any(word in line for line in table)]
    assert not folded, (folded, table)


@pytest.mark.parametrize("columns", [80, 60])
@pytest.mark.parametrize("fails, results, code", [
    ("everything", {"(not set)": "rejected", "required": "inconclusive"}, 1),
    ("tool_choice", {"(not set)": "honored", "required": "rejected"}, 0),
    ("nothing", {"required": "honored"}, 0),
])
def test_the_cli_table_says_so_whole_at_80_and_60_columns(columns: int, fails: str, results: dict, code: int):
    with server(fails) as stand_in:
        shown = cli_probe(stand_in.base_url(), columns)
        document = json.loads(cli_probe(stand_in.base_url(), columns, "--format", "json").stdout)
    assert shown.returncode == code, shown.stderr
    assert all(len(line) <= columns for line in shown.stdout.splitlines()), shown.stdout
    table, rows = probe_table(shown.stdout)
    assert table and all(len(line) <= columns for line in table), [len(line) for line in table]
    for question, result in results.items():
        assert rows.get(question, ("",))[0] == result, (question, rows)
    assert ("(not set)" in rows) is (fails != "nothing")
    # no word of any evidence (as the JSON document holds it: all shorter than the table's clip) folded
    evidence = [q["evidence"] for q in document["questions"]]
    assert all(len(text) < 200 for text in evidence) and [q["question"] for q in document["questions"]] == list(rows)
    assert_words_whole(table, " ".join(evidence).split(), columns)
    if fails == "everything":  # the reason opens the evidence, so the table shows it
        told = " ".join(cells[1] for cells in rows.values())
        assert "the question without tool_choice failed the same way" in told
        assert "server_error:" in told
        assert "required: inconclusive" in shown.stderr and KEY not in shown.stdout + shown.stderr


@pytest.mark.parametrize("fails, control", [("everything", "rejected"), ("tool_choice", "honored"),
                                            ("nothing", None)])
def test_the_cli_json_holds_the_control(fails: str, control: str | None):
    with server(fails) as stand_in:
        shown = cli_probe(stand_in.base_url(), 80, "--format", "json")
    document = json.loads(shown.stdout)
    questions = by_feature(document)
    assert (questions.get("unset") or {}).get("result") == control
    assert questions["required"]["result"] == {"everything": "inconclusive"}.get(fails, "rejected" if fails ==
                                                                                 "tool_choice" else "honored")


class SlowControl(ByRequest):
    """Rejects a tool_choice at once; the control (no tool_choice) is answered after 30 s: Ctrl-C comes first."""

    def record(self, received) -> None:  # type: ignore[no-untyped-def]
        super().record(received)
        if "tool_choice" not in received.json:
            self._answer.step = Step(body=CALL, delay=30)


def test_ctrl_c_while_the_control_is_asked_saves_nothing_and_says_what_was_answered(tmp_path):
    from servers import CLI
    from test_interrupt_and_save import KEY as INTERRUPT_KEY
    from test_interrupt_and_save import interrupt_when

    overlay = tmp_path / "overlay.json"
    stand_in = SlowControl()
    stand_in.fails = "tool_choice"
    with stand_in:
        shown = interrupt_when([*CLI, "probe", "-p", "openai", "--base-url", stand_in.base_url(), "--repeat", "1",
                                "--retries", "0", "--tool-choice", "required", "--save", str(overlay), "-f", "json"],
                               lambda: None in stand_in.asked())
    assert shown.returncode == 130, shown.stderr
    document = json.loads(shown.stdout)
    assert [(q["feature"], q["result"]) for q in document["questions"]] == [
        ("unset", "not asked"), ("required", "rejected"), ("any", "not asked")]
    assert document["questions"][0]["evidence"].startswith("interrupted")
    # the answer stands as measured (nothing is saved), and says the control did not check it
    assert document["questions"][1]["evidence"].startswith("not checked against the question without tool_choice")
    assert document["partial"] == {"done": 1, "requested": 3}
    assert not overlay.exists() and "Traceback" not in shown.stderr
    assert INTERRUPT_KEY not in shown.stdout + shown.stderr


class SlowThird(ByRequest):
    """Fails every request at once (500) but the third, which waits 30 s: Ctrl-C comes while it is asked."""

    def record(self, received) -> None:  # type: ignore[no-untyped-def]
        super().record(received)
        if len(self.requests) == 3:
            self._answer.step = Step.error("openai", 500, "the server is down", delay=30)


def test_ctrl_c_after_the_control_was_answered_counts_it_answered(tmp_path):
    """required (answered), then the control (answered), then any: Ctrl-C while any waits. Two questions got
    their answer (the server's own record: two answered, the third held), of three asked for."""
    from servers import CLI
    from test_interrupt_and_save import interrupt_when

    stand_in = SlowThird()
    stand_in.fails = "everything"
    with stand_in:
        shown = interrupt_when([*CLI, "probe", "-p", "openai", "--base-url", stand_in.base_url(), "--repeat", "1",
                                "--retries", "0", "--tool-choice", "required", "-f", "json"],
                               lambda: len(stand_in.asked()) >= 3)
        asked = stand_in.asked()
    assert shown.returncode == 130, shown.stderr
    assert len(asked) == 3 and asked[1] is None, asked  # required, the control, then any
    document = json.loads(shown.stdout)
    answered = [q["feature"] for q in document["questions"] if q["result"] != "not asked"]
    assert sorted(answered) == ["required", "unset"], document["questions"]
    assert document["partial"] == {"done": 2, "requested": 3}
    assert "interrupted: 2 of 3 questions answered" in shown.stderr


class Flaky(ByRequest):
    """Fails every request with 500 but the second request without a tool_choice, which gets the call: a server
    that answers the control differently from one sample to the next."""

    def __init__(self) -> None:
        super().__init__()
        self._lock = threading.Lock()
        self._controls = 0

    def record(self, received) -> None:  # type: ignore[no-untyped-def]
        super().record(received)
        if "tool_choice" not in received.json:
            with self._lock:  # the samples may arrive at once: each gets its own number
                self._controls += 1
                second = self._controls == 2
            if second:
                self._answer.step = Step(body=CALL)


@pytest.mark.parametrize("asked", ["required", None])
def test_a_control_that_failed_the_same_way_on_some_samples_leaves_the_choice_inconclusive(asked):
    """The server's script fails requests without tool_choice with the same 500 (two samples of three): a 500 on
    every sample of V's is no evidence that V is rejected (docs/probe.md: "a server that is down is not a server
    that rejects `required`"). The whole probe (None) and --tool-choice alike."""
    stand_in = Flaky()
    stand_in.fails = "everything"
    with stand_in:
        result = probe(stand_in.base_url(), choice(asked) if asked else None, repeat=3)
        got = stand_in.asked()
    questions = by_feature(result)
    assert got.count(None) == 3 and questions["unset"]["result"] == "inconclusive", questions["unset"]
    for feature in ("required", "any"):
        assert questions[feature]["result"] == "inconclusive", questions[feature]
        assert questions[feature]["evidence"].startswith("the question without tool_choice failed the same way")
    assert not [f for f, v in result["overlay"]["features"].items() if v["result"] == "rejected"]
