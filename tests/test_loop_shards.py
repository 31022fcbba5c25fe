"""`run --repeat` over several processes (providers/core/loop_shards.py, issue 30).

Real `toolchoice` processes against stand-in servers on 127.0.0.1 (tests/servers.py; replies are the recorded
OpenAI body, tests/data/responses/openai/SOURCES.md). What the shards did is checked from outside: the
processes the command forked (/proc), the requests the stand-in counted, and the document against a replay
of the transcripts the same run saved, answered in one process.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_loop import EXE, KEY, env, openai_body, run_in_process, toolchoice  # noqa: E402
from test_loop_scale import FOUR_STEPS  # noqa: E402 - 4 steps of one tool, its results a template
from servers import StandIn, Step  # noqa: E402

from toolchoice.providers.core import loop_shards, runner  # noqa: E402
from toolchoice.providers.core.loop_tally import LoopTally, tally_of  # noqa: E402

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="shards fork: Linux only")

LOOPS = 100  # x 4 steps = 400 requests: two shards of SHARD_MIN_REQUESTS (200)


@pytest.fixture(autouse=True)
def keys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)


def mixed(n: int, delay: float = 0.0) -> list[Step]:
    """Replies in arrival order: mostly a call (each with its own query), every 7th a final answer."""
    return [Step(body=openai_body(text=f"done {i}") if i % 7 == 3 else
                 openai_body([(f"c{i}", "search", {"query": f"q{i}"})]), delay=delay) for i in range(n)]


def children_of(pid: int) -> set[int]:
    try:
        return {int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()}
    except OSError:
        return set()


def running(pid: int) -> bool:
    """Alive and not a zombie (an exited child its new parent has not reaped yet)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


class Watch:
    """Every process ``pid`` forked, collected while it runs."""

    def __init__(self, pid: int) -> None:
        self.pid, self.seen, self.done = pid, set(), threading.Event()
        self.thread = threading.Thread(target=self._poll, daemon=True)
        self.thread.start()

    def _poll(self) -> None:
        while not self.done.is_set():
            self.seen |= children_of(self.pid)
            time.sleep(0.01)

    def stop(self) -> set[int]:
        self.done.set()
        self.thread.join()
        return self.seen


def start(path: Path, server: StandIn, *extra: str) -> subprocess.Popen[str]:
    """The command in a process group of its own, as a shell starts a job: a group whose parent is in
    another group of the same session, so not orphaned (the kernel discards a stop signal sent to an orphaned
    group, as the suite's own may be under CI or `setsid`: there Ctrl-Z stops nothing, with or without shards)."""
    return subprocess.Popen([EXE, "run", str(path), "-p", "openai", "--base-url", server.base_url(), "--repeat",
                             str(LOOPS), "--retries", "0", *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env(), process_group=0)


def wait_for(server: StandIn, count: int) -> None:
    deadline = time.monotonic() + 60
    while len(server.requests) < count and time.monotonic() < deadline:
        time.sleep(0.02)
    assert len(server.requests) >= count, len(server.requests)


def test_two_processes_give_the_document_a_replay_of_their_transcripts_gives_in_one(tmp_path: Path) -> None:
    path = tmp_path / "loop.yaml"
    path.write_text(FOUR_STEPS)
    saved = tmp_path / "saved"
    with StandIn("openai", *mixed(4 * LOOPS, delay=0.01)) as server:
        process = start(path, server, "--concurrency", "10", "--format", "json", "--processes", "2", "--save",
                        str(saved))
        watch = Watch(process.pid)
        out, err = process.communicate(timeout=120)
        forked = watch.stop()
        received, base_url = len(server.requests), server.base_url()
    assert process.returncode == 0, err
    assert len(forked) == 2  # the shards, seen from outside
    document = json.loads(out)
    [entry] = document["runs"]
    assert [r["loop"] for r in entry["loops"]] == list(range(1, LOOPS + 1))
    steps = sum(len(r["steps"]) for r in entry["loops"])
    assert received == steps  # every step sent once, and nothing else
    assert {r["ended"]["reason"] for r in entry["loops"]} == {"no_tool_call", "max_steps"}  # loops differ
    assert entry["summary"]["loops"] == LOOPS and entry["summary"]["steps"][0]["reached"] == LOOPS
    assert KEY not in out + err
    # the transcripts both shards saved, answered again in this one process: the same document
    replay = toolchoice("run", str(path), "-p", "openai", "--base-url", base_url, "--format", "json", "--replay",
                        str(saved))
    assert replay.returncode == 0, replay.stderr
    # an attempt's own time is the transport's (as in test_loop_scale), and a replayed step's is the recorded
    # one, rounded: so are the latency percentiles over them
    attempts = re.compile(r'"latency_ms": ([0-9.]+|\{[^{}]*\})')
    assert attempts.sub("L", replay.stdout) == attempts.sub("L", out).replace('"replay": false', '"replay": true')


def test_pretty_tallies_over_two_processes_are_those_of_one(tmp_path: Path) -> None:
    path = tmp_path / "loop.yaml"
    path.write_text(FOUR_STEPS)
    shown = {}
    for processes in ("1", "2"):
        with StandIn("openai", default=Step(body=openai_body([("c1", "search", {"query": "cats"})]))) as server:
            process = start(path, server, "--concurrency", "8", "--processes", processes)
            watch = Watch(process.pid)
            out, err = process.communicate(timeout=120)
            assert len(watch.stop()) == (2 if processes == "2" else 0)
            assert process.returncode == 0, err
            assert len(server.requests) == 4 * LOOPS
        # latencies differ from run to run, and with their width the tables' layout: the words and numbers
        shown[processes] = re.findall(r"[^\s─━│┃┏┓┗┛┡┩└┘┌┐╇╋┼┬┴├┤╭╮╰╯]+", re.sub(r"\d+ ms", "N ms", out))
    assert shown["1"] == shown["2"]
    assert str(LOOPS) in shown["2"] and "loops" in shown["2"]


def test_ctrl_c_reaches_every_shard_which_keeps_its_finished_loops_and_steps(tmp_path: Path) -> None:
    path = tmp_path / "loop.yaml"
    path.write_text(FOUR_STEPS)
    quick = 40
    with StandIn("openai", *mixed(quick), default=Step(body=openai_body(text="late"), delay=30)) as server:
        process = start(path, server, "--concurrency", "4", "--format", "json", "--processes", "2")
        watch = Watch(process.pid)
        wait_for(server, quick + 4)  # the quick replies, then every shard's loops waiting on a slow one
        time.sleep(0.2)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
        forked = watch.stop()
        assert len(server.requests) == quick + 4
    assert process.returncode == 130, out + err
    assert len(forked) == 2 and not any(running(pid) for pid in forked)
    [entry] = json.loads(out)["runs"]
    loops = entry["loops"]
    assert len(loops) == LOOPS
    assert sum(len(r["steps"]) for r in loops) == quick  # each step answered before Ctrl-C, none other
    finished = [r for r in loops if r["ended"]["reason"] != "interrupted"]
    assert f"interrupted: {len(finished)} of {LOOPS} loops finished" in err
    assert entry["summary"]["ended"]["interrupted"]["count"] == LOOPS - len(finished)
    cut = [r for r in loops if r["ended"]["reason"] == "interrupted" and r["steps"]]
    # the loops in flight (two a shard) keep the steps they had finished (none, for one that had just begun)
    assert len(cut) <= 4 and all(len(r["steps"]) < 4 for r in cut)


@contextmanager
def sharded_run(tmp_path: Path, delay: float) -> Iterator[tuple[StandIn, subprocess.Popen[str], Watch]]:
    """`run --repeat` over two processes against a stand-in that always calls the tool after ``delay``,
    once eight requests arrived."""
    path = tmp_path / "loop.yaml"
    path.write_text(FOUR_STEPS)
    with StandIn("openai", default=Step(body=openai_body([("c1", "search", {"query": "cats"})]), delay=delay)) as server:
        process = start(path, server, "--concurrency", "4", "--format", "json", "--processes", "2")
        watch = Watch(process.pid)
        wait_for(server, 8)
        yield server, process, watch


def test_shards_leave_as_soon_as_their_parent_is_killed(tmp_path: Path) -> None:
    with sharded_run(tmp_path, 0.2) as (server, process, watch):
        forked = set(watch.seen)
        process.kill()
        process.communicate(timeout=60)
        watch.stop()
        deadline = time.monotonic() + 10
        while any(running(pid) for pid in forked) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert len(forked) == 2 and not any(running(pid) for pid in forked)
        sent = len(server.requests)
        time.sleep(0.5)
        assert len(server.requests) == sent  # nothing more goes out


def test_ctrl_z_pauses_every_shard_with_the_command_and_fg_resumes_them(tmp_path: Path) -> None:
    """The terminal's SIGTSTP stops its foreground group: the command alone, the shards leading groups of their
    own went on sending (148 requests in 2 s while stopped: an adversarial run). As one process, nothing is
    sent while stopped; once continued, every loop finishes."""
    with sharded_run(tmp_path, 0.005) as (server, process, watch):
        process.send_signal(signal.SIGTSTP)
        time.sleep(0.3)  # the replies in flight arrive; no request follows them
        stopped = len(server.requests)
        time.sleep(0.6)
        assert len(server.requests) == stopped < 4 * LOOPS
        process.send_signal(signal.SIGCONT)
        out, err = process.communicate(timeout=120)
        watch.stop()
        assert process.returncode == 0, err
        assert len(server.requests) == 4 * LOOPS
    [entry] = json.loads(out)["runs"]
    assert entry["summary"]["loops"] == LOOPS


def test_a_shard_killed_mid_run_fails_its_own_loops_only_and_says_so(tmp_path: Path) -> None:
    with sharded_run(tmp_path, 0.005) as (_, process, watch):
        os.kill(min(watch.seen), signal.SIGKILL)
        out, err = process.communicate(timeout=120)
        watch.stop()
    assert process.returncode == 1, err  # a loop that ended in an error failed the run
    [entry] = json.loads(out)["runs"]
    lost = [r for r in entry["loops"] if r["ended"]["reason"] == "error"]
    kept = [r for r in entry["loops"] if r["ended"]["reason"] == "max_steps"]
    assert len(lost) == len(kept) == LOOPS // 2  # every other loop is the killed shard's
    assert {r["loop"] % 2 for r in lost} == {1} or {r["loop"] % 2 for r in lost} == {0}
    assert all(len(r["steps"]) == 4 for r in kept)
    assert {r["ended"]["error"] for r in lost} == {"the process running this loop ended without its results "
                                          "(killed by signal 9)"}


def test_a_fork_pays_only_with_a_cpu_enough_requests_and_loops_in_flight_for_each_shard() -> None:
    assert loop_shards.shard_count(2, 200, 800, 50, 2) == 2
    assert loop_shards.shard_count(8, 200, 800, 50, 8) == 4  # each shard at least SHARD_MIN_REQUESTS
    assert loop_shards.shard_count(8, 1000, 8000, 50, 2) == 2  # no more than one a CPU
    assert loop_shards.shard_count(2, 200, 399, 50, 2) == 1
    assert loop_shards.shard_count(4, 200, 800, 3, 4) == 3  # each shard keeps a loop in flight
    assert loop_shards.shard_count(4, 2, 800, 50, 4) == 2
    assert loop_shards.shard_count(1, 200, 800, 50, 4) == 1
    assert loop_shards.shard_count(4, 200, 800, 50, 1) == 1
    assert [loop_shards.share(50, 4, n) for n in range(4)] == [13, 13, 12, 12]


FORK_ALLOWED = """
import sys, threading, httpx
from toolchoice.providers.core import loop_shards, runner
plain = runner.SendSettings()
injected = runner.SendSettings(transport=httpx.MockTransport(lambda r: httpx.Response(200)))
first = (loop_shards.fork_allowed(plain), loop_shards.fork_allowed(injected))
release = threading.Event()
threading.Thread(target=release.wait).start()
print(first, loop_shards.fork_allowed(plain))
release.set()
"""


def test_a_fork_happens_only_in_a_process_of_one_thread_over_real_sockets() -> None:
    """In a fresh interpreter (pytest's own process runs threads): a fork would copy one thread of two, and
    an injected transport is an object of the caller's process."""
    result = subprocess.run([sys.executable, "-c", FORK_ALLOWED], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[0] == "(True, False) False"


REFUSED_FORK = """
import json, os, sys
from toolchoice.providers.core import jobs, loop, runner
from toolchoice.providers.core.model import RenderOptions
from toolchoice.providers.core.scenario import load_scenario_text

forks = {"n": 0}
real_fork = os.fork

def fork():  # the system takes the first forks and refuses the next (EAGAIN: out of processes)
    forks["n"] += 1
    if forks["n"] > int(sys.argv[2]):
        raise BlockingIOError(11, "Resource temporarily unavailable")
    return real_fork()

os.fork = fork
scenario = load_scenario_text(sys.stdin.read(), "loop.yaml")
options = loop.LoopOptions(RenderOptions(base_url=sys.argv[1]))
result = jobs.run(scenario, ["openai"], options, repeat=100, processes=2,
                  settings=runner.SendSettings(retries=0, concurrency=4))
summary = result.reduced.tallies["openai"].summary()
print(json.dumps([forks["n"], result.code, summary["loops"], summary["ended"]["max_steps"]["count"],
                  sorted({r.ended for r in result.runs}), sorted(result.secrets.values())]))
result.close()
"""


@pytest.mark.parametrize("allowed", [1, 2])
def test_a_refused_fork_leaves_its_loops_to_the_parent_which_knows_the_keys(tmp_path: Path, allowed: int) -> None:
    """Out of processes (fork raises EAGAIN) after the first shard: the parent runs the other share itself.
    Either way the library caller's result knows the key its records must not show (a shard's are its own)."""
    with StandIn("openai", default=Step(body=openai_body([("c1", "search", {"query": "cats"})]))) as server:
        result = subprocess.run([sys.executable, "-c", REFUSED_FORK, server.base_url(), str(allowed)],
                                input=FOUR_STEPS, capture_output=True, text=True, timeout=120, env=env())
        assert result.returncode == 0, result.stderr
        assert len(server.requests) == 4 * LOOPS
    assert json.loads(result.stdout) == [2, 0, LOOPS, LOOPS, ["max_steps"], ["$OPENAI_API_KEY"]]


RAW_THREAD = """
import _thread, threading, time
from toolchoice.providers.core import loop_shards, runner
started = threading.Event()
_thread.start_new_thread(lambda: (started.set(), time.sleep(30)), ())  # as a C library's own thread: not in threading
started.wait()
print(threading.active_count(), loop_shards.fork_allowed(runner.SendSettings()))
"""


def test_a_thread_started_outside_threading_forbids_a_fork_too() -> None:
    """threading counts only its own threads: one started by _thread (or by a C extension a library caller
    imported) let the shards fork beside it (an adversarial run)."""
    result = subprocess.run([sys.executable, "-c", RAW_THREAD], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["1", "False"]


def test_merged_tallies_are_the_tallies_of_every_loop() -> None:
    """Shards' tallies merged against the tally of every loop in one (the reduction `run --repeat` has always
    made): counts, rates, percentiles, and the lines whose ties keep loop order (errors, disobedience)."""
    answers = iter(range(10_000))

    def answer(request: httpx.Request) -> httpx.Response:
        i = next(answers)
        if i % 11 == 4:
            return httpx.Response(500, json={"error": {"message": f"overloaded {i % 3}", "type": "server_error"}})
        body = openai_body(text=f"done {i}") if i % 5 == 2 else openai_body([(f"c{i}", "search", {"query": f"q{i}"})])
        return httpx.Response(200, json=body)

    runs = run_in_process(FOUR_STEPS.replace("tool_choice: auto", "tool_choice: required"), answer, repeat=40,
                          concurrency=3)
    whole = tally_of(runs)
    assert whole.error_lines() and whole.reason_lines()  # something to merge
    for shards in (2, 3, 7):
        merged = LoopTally()
        for n in range(shards):
            merged.merge(tally_of(runs[n::shards]))
        assert merged.summary() == whole.summary()
        assert list(merged.error_lines().most_common()) == list(whole.error_lines().most_common())
        assert list(merged.reason_lines().most_common()) == list(whole.reason_lines().most_common())
        assert merged.findings == whole.findings and merged.categories == whole.categories
        assert [merged.step_choices(n) for n in (1, 2, 3, 4)] == [whole.step_choices(n) for n in (1, 2, 3, 4)]
