"""`run --repeat` at scale (issue 30): a fixed pool of loops in flight, every step sent once, finished loops
reduced to tallies (and, for JSON, spooled) with the same document, Ctrl-C keeps the finished loops.

Stand-in servers on 127.0.0.1 (tests/servers.py) count what is sent; replies are the recorded OpenAI body
(tests/data/responses/openai/SOURCES.md). The reference for a document is ``json.dumps(..., indent=2)`` of
the runs held whole, as before the reduction.
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_loop import EXE, KEY, env, openai_body, run_in_process, toolchoice  # noqa: E402
from servers import StandIn, Step  # noqa: E402

from toolchoice.providers.core.loop_tally import run_document  # noqa: E402
from toolchoice.providers.core import loop, runner  # noqa: E402
from toolchoice.providers.core.loop_tally import LoopTally  # noqa: E402
from toolchoice.providers.core.model import RenderOptions  # noqa: E402
from toolchoice.providers.core.scenario import load_scenario_text  # noqa: E402

FOUR_STEPS = """\
tools:
  - {name: search, description: search the web, parameters: {type: object, properties: {query: {type: string}}}}
tool_choice: auto
messages:
  - {role: user, content: find cats}
loop:
  max_steps: 4
  results:
    search: {template: "results for {query}"}
"""


@pytest.fixture(autouse=True)
def keys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)


def always_calls(request: httpx.Request) -> httpx.Response:
    return httpx.Response(200, json=openai_body([("c1", "search", {"query": "cats"})]))


def test_at_most_concurrency_loops_are_held_at_once_and_every_step_is_sent_once() -> None:
    active: set[int] = set()
    most = {"n": 0}
    sent = {"n": 0}

    def answer(request: httpx.Request) -> httpx.Response:
        sent["n"] += 1
        return always_calls(request)

    def on_step(run: Any, record: Any) -> None:
        active.add(run.index)
        most["n"] = max(most["n"], len(active))

    scenario = load_scenario_text(FOUR_STEPS, "loop.yaml")
    runs = loop.new_runs(["openai"], 9)
    settings = runner.SendSettings(retries=0, concurrency=2, transport=httpx.MockTransport(answer))
    ended: list[int] = []

    def on_loop(run: Any) -> None:
        active.discard(run.index)
        ended.append(run.index)

    loop.run_loops(scenario, runs, settings, loop.LoopOptions(RenderOptions()), {}, on_step, None, on_loop)
    assert sent["n"] == 9 * 4
    assert most["n"] <= 2  # all nine started at once held nine loops until the first ended
    assert sorted(ended) == list(range(1, 10))
    assert all(r.ended == "max_steps" and len(r.steps) == 4 for r in runs)


def test_repeat_json_is_the_whole_document_and_the_stand_in_counts_every_step_once(tmp_path: Path) -> None:
    path = tmp_path / "loop.yaml"
    path.write_text(FOUR_STEPS)
    body = openai_body([("c1", "search", {"query": "cats"})])
    saved = tmp_path / "saved"
    with StandIn("openai", default=Step(body=body)) as server:
        live = toolchoice("run", str(path), "-p", "openai", "--base-url", server.base_url(), "--repeat", "7",
                          "--concurrency", "3", "--format", "json", "--retries", "0", "--save", str(saved))
        assert len(server.requests) == 7 * 4
    assert live.returncode == 0, live.stderr
    document = json.loads(live.stdout)
    [entry] = document["runs"]
    assert [r["loop"] for r in entry["loops"]] == list(range(1, 8))
    assert all(len(r["steps"]) == 4 for r in entry["loops"])
    assert entry["summary"]["steps"][3]["reached"] == 7
    # the spooled document, byte for byte, against json.dumps of the runs held whole (replayed: same latencies)
    replay = toolchoice("run", str(path), "-p", "openai", "--format", "json", "--replay", str(saved))
    assert replay.returncode == 0, replay.stderr
    scenario = load_scenario_text(FOUR_STEPS, str(path))
    scenario = scenario._replace(path=str(path))
    source = loop.load_replay(saved, "openai")
    runs = loop.new_runs(["openai"], len(source.transcripts))
    loop.run_loops(scenario, runs, runner.SendSettings(retries=0), loop.LoopOptions(RenderOptions()), {}, None, source)
    whole = json.dumps(run_document(scenario.path, runs, ["openai"], 7, True), indent=2, ensure_ascii=False) + "\n"
    # a replayed step's latency is the recorded one; its attempt's is the in-process transport's own
    attempts = re.compile(r'"latency_ms": [0-9.]+')
    assert attempts.sub("L", replay.stdout) == attempts.sub("L", whole)
    assert replay.stdout.count('"latency_ms"') == whole.count('"latency_ms"')
    assert KEY not in replay.stdout + live.stdout


def test_pretty_and_markdown_tallies_are_those_of_the_runs_held_whole(tmp_path: Path) -> None:
    path = tmp_path / "loop.yaml"
    path.write_text(FOUR_STEPS)
    with StandIn("openai", default=Step(body=openai_body([("c1", "search", {"query": "cats"})]))) as server:
        for fmt in ("markdown", "pretty"):
            result = toolchoice("run", str(path), "-p", "openai", "--base-url", server.base_url(), "--repeat", "5",
                                "--concurrency", "2", "--format", fmt, "--retries", "0")
            assert result.returncode == 0, result.stderr
            assert "5 loops" in result.stdout
            assert "max_steps" in result.stdout
        assert len(server.requests) == 2 * 5 * 4


def test_tied_lines_keep_loop_order_whatever_order_loops_ended_in() -> None:
    def run(index: int, error: str | None) -> Any:
        return SimpleNamespace(index=index, ended="error" if error else "max_steps", error=error, steps=[],
                               terminated=False, tool_results=lambda: (0, 0), tokens=lambda: (None, None),
                               latency_ms=lambda: None)

    runs = [run(1, "b failed"), run(2, "a failed"), run(3, None), run(4, "a failed"), run(5, "b failed")]
    tally = LoopTally()
    for r in reversed(runs):  # ended last to first
        tally.add(r)
    expected = Counter(r.error for r in runs if r.error)  # what the tallies over the runs in order gave
    assert list(tally.error_lines().most_common()) == list(expected.most_common())
    assert tally.summary()["ended"]["error"]["count"] == 4


def interrupted_in_loop_two(start: Callable[[str], subprocess.Popen[str]]) -> tuple[str, str, str]:
    """Ctrl-C while loop 2 of a 2-step loop waits on its second answer: the server answers three requests, then
    holds the fourth; ``start(base_url)`` starts the process that runs the loops. (stdout, stderr, base URL)."""
    calls = openai_body([("c1", "search", {"query": "cats"})])
    steps = [Step(body=calls), Step(body=calls), Step(body=calls), Step(body=calls, delay=30)]
    with StandIn("openai", *steps, default=Step(body=calls, delay=30)) as server:
        base_url = server.base_url()
        process = start(base_url)
        deadline = time.monotonic() + 60
        while len(server.requests) < 4 and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.2)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    assert process.returncode == 130, out + err
    return out, err, base_url


def test_ctrl_c_with_repeat_keeps_the_finished_loops_and_exits_130(tmp_path: Path) -> None:
    path = tmp_path / "loop.yaml"
    path.write_text(FOUR_STEPS.replace("max_steps: 4", "max_steps: 2"))
    out, err, _ = interrupted_in_loop_two(lambda base_url: subprocess.Popen(
        [EXE, "run", str(path), "-p", "openai", "--base-url", base_url, "--repeat", "3", "--concurrency", "1",
         "--format", "json", "--retries", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env()))
    assert "interrupted: 1 of 3 loops finished" in err
    [entry] = json.loads(out)["runs"]
    first, second, third = entry["loops"]
    assert first["ended"]["reason"] == "max_steps" and len(first["steps"]) == 2
    assert second["ended"]["reason"] == "interrupted" and len(second["steps"]) == 1
    assert second["ended"]["step"] == 2  # its second request was under way, no byte of the answer come
    assert third["ended"]["reason"] == "interrupted" and third["steps"] == []
    assert third["ended"]["step"] is None  # one loop at a time: the third had not begun
    assert entry["summary"]["ended"]["max_steps"]["count"] == 1
    assert entry["summary"]["ended"]["interrupted"]["count"] == 2


def test_a_key_echoed_into_a_loop_never_reaches_the_spool_file_or_the_output(tmp_path: Path) -> None:
    from toolchoice.providers.core.loop_tally import LoopSpool
    from toolchoice.providers.core.transport import redact

    secrets = {KEY: "$OPENAI_API_KEY"}
    echoed = SimpleNamespace(provider="openai", index=1, to_json=lambda: {"final_answer": f"your key is {KEY}"})
    spool = LoopSpool(lambda text: redact(text, secrets))
    spool.add(echoed)
    spool.files[0].seek(0)
    assert KEY not in spool.files[0].read().decode("utf-8")
    written: list[bytes] = []
    spool.write_document({"scenario": f"s-{KEY}.yaml"}, [("openai", [1], {"note": KEY})], written.append)
    spool.close()
    document = b"".join(written).decode("utf-8")
    assert KEY not in document and "your key is $OPENAI_API_KEY" in document  # the loops and around them
    path = tmp_path / "loop.yaml"
    path.write_text(FOUR_STEPS)
    with StandIn("openai", default=Step(body=openai_body(text=f"the key was {KEY}"))) as server:
        result = toolchoice("run", str(path), "-p", "openai", "--base-url", server.base_url(), "--repeat", "3",
                            "--format", "json", "--retries", "0")  # toolchoice() asserts the key is not shown
    loops = json.loads(result.stdout)["runs"][0]["loops"]
    assert [r["final_answer"] for r in loops] == ["the key was $OPENAI_API_KEY"] * 3


def test_the_spool_holds_each_loop_as_shown_and_shows_the_text_around_the_loops() -> None:
    """Each loop is made visible as it is spooled (while other loops wait for replies), so writing the
    document copies text; the head and the summaries around the loops are made visible as they are written."""
    from toolchoice.providers.core.loop_tally import LoopSpool

    raw = "csi \x9b31m del \x7f sep \u2028 bidi \u202e"
    shown = "csi \\u009b31m del \\u007f sep \\u2028 bidi \\u202e"  # JSON's escapes: the same text read back
    spool = LoopSpool()
    spool.add(SimpleNamespace(provider="openai", index=1, to_json=lambda: {"final_answer": raw}))
    spool.files[0].seek(0)
    assert shown in spool.files[0].read().decode("utf-8")
    written: list[bytes] = []
    spool.write_document({"scenario": raw}, [("openai", [1], {"note": raw})], written.append)
    spool.close()
    document = b"".join(written).decode("utf-8")
    assert not any(c in document for c in "\x9b\x7f\u2028\u202e") and document.count(shown) == 3
    assert json.loads(document)["runs"][0]["loops"][0]["final_answer"] == raw


def test_the_document_bytes_reach_an_unbuffered_stdout_whole_when_it_takes_part_of_each_write(monkeypatch) -> None:
    """$PYTHONUNBUFFERED or -u: sys.stdout.buffer is the raw file, whose write may take only part of a piece
    (a signal during a write to a pipe); the spooled loops are megabytes, so the rest must follow."""
    from toolchoice.cli.output import shown_utf8_writer

    class Raw:
        def __init__(self) -> None:
            self.got = bytearray()

        def write(self, data: Any) -> int:
            taken = bytes(data[:1000])
            self.got += taken
            return len(taken)

    stdout = SimpleNamespace(encoding="UTF-8", buffer=Raw(), flush=lambda: None)
    monkeypatch.setattr(sys, "stdout", stdout)
    piece = ("sunny → 21 °C " * 2000).encode("utf-8")
    write = shown_utf8_writer()
    write(piece)
    write(b",\n")
    assert bytes(stdout.buffer.got) == piece + b",\n"


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16"])
def test_the_spooled_document_is_the_same_text_whichever_encoding_stdout_writes(tmp_path: Path,
                                                                                encoding: str) -> None:
    """A real process: on a UTF-8 stdout the spooled loops are copied as bytes, on another encoding
    (PYTHONIOENCODING) written as text; either way the same document, non-ASCII text included."""
    path = tmp_path / "loop.yaml"
    path.write_text(FOUR_STEPS)
    text = "sunny → 21 °C"
    with StandIn("openai", default=Step(body=openai_body(text=text))) as server:
        result = subprocess.run([EXE, "run", str(path), "-p", "openai", "--base-url", server.base_url(), "--repeat", "3",
                                 "--format", "json", "--retries", "0"], capture_output=True,
                                env=env(PYTHONIOENCODING=encoding), timeout=120)
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout.decode(encoding))
    assert [r["final_answer"] for r in document["runs"][0]["loops"]] == [text] * 3
    assert document["runs"][0]["summary"]["loops"] == 3


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_document_stdout_cannot_take_is_one_error_line_and_exit_70(tmp_path: Path) -> None:
    """stdout on a full disk (/dev/full: every write fails with ENOSPC), buffered as it is by default: the
    error is one line and exit 70, as when the document went through the text layer; what the buffer still
    holds must not fail again at the exit (a second report, "Exception ignored ...", and exit 120)."""
    path = tmp_path / "loop.yaml"
    path.write_text(FOUR_STEPS)
    buffered = {k: v for k, v in env().items() if k != "PYTHONUNBUFFERED"}
    with StandIn("openai", default=Step(body=openai_body(text="sunny"))) as server, open("/dev/full", "wb") as full:
        result = subprocess.run([EXE, "run", str(path), "-p", "openai", "--base-url", server.base_url(), "--repeat", "3",
                                 "--format", "json", "--retries", "0"], stdout=full, stderr=subprocess.PIPE, text=True,
                                env=buffered, timeout=120)
    assert result.returncode == 70 and len(result.stderr.splitlines()) == 1, result.stderr
    assert "No space left on device" in result.stderr


def test_the_spooled_json_document_escapes_what_a_terminal_would_act_on(tmp_path: Path) -> None:
    """json.dumps(ensure_ascii=False) leaves C1 controls (CSI 0x9b) and U+2028 raw: the spooled `run --repeat
    --format json` document is escaped as every output is (output.write), and still reads back the same."""
    path = tmp_path / "loop.yaml"
    path.write_text(FOUR_STEPS)
    text = "red \x9b31m line\u2028break"
    with StandIn("openai", default=Step(body=openai_body(text=text))) as server:
        result = toolchoice("run", str(path), "-p", "openai", "--base-url", server.base_url(), "--repeat", "2",
                            "--format", "json", "--retries", "0")
    assert "\x9b" not in result.stdout and "\u2028" not in result.stdout
    loops = json.loads(result.stdout)["runs"][0]["loops"]
    assert [r["final_answer"] for r in loops] == [text] * 2
