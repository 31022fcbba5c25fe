"""compare --send's rows as a person reads them (trial13a), at 60, 80 and 120 columns without colour, in-process:
an errored provider's calls cell says the error once, its provider named by the row alone (it read
`openai: 400 invalid_request_error: ...` beside `openai`), in the words the server answered; and where Ctrl-C cut
every sample of `-n 3` mid-stream, the row shows the calls each cut stream had begun, marked as cut, as the JSON
document's `cut` holds them (the row said only "interrupted before a sample finished").

The truth is outside the drawing: the error body a stand-in server wrote (tests/servers.py), the chunks the stream
stand-in wrote (tests/streams.py, as tests/test_stream_interrupt.py sends them), and the same command's `-f json`.
Ctrl-C is a real SIGINT sent to this process's main thread while the command waits on the held streams: the same
handler a terminal's Ctrl-C runs (the real-process form is tests/test_stream_interrupt.py)."""

from __future__ import annotations

import json
import re
import signal
import threading
import time
from pathlib import Path

import pytest
from servers import StandIn, Step
from streams import CITY_WEATHER_SCENARIO, Piece, Script, StreamServer
from test_stream_interrupt import SENT

from cli import run_cli

WIDTHS = (60, 80, 120)
KEY = "sk-compare-rows-0123456789"
MESSAGE = "tool_choice names a tool the request does not declare"


def environment(columns: int) -> dict[str, str]:
    return {"COLUMNS": str(columns), "NO_COLOR": "1", "TERM": "dumb", "NO_PROXY": "127.0.0.1",
            "OPENAI_API_KEY": KEY, "ANTHROPIC_API_KEY": KEY}


def table(text: str) -> str:
    """The table alone (bordered, or one record a row): from its top edge to its bottom edge."""
    lines = text.splitlines()
    top = next(i for i, line in enumerate(lines) if line.startswith(("┏", "┌")))
    bottom = next(i for i, line in enumerate(lines) if line.startswith("└"))
    return "\n".join(lines[top:bottom + 1])


def column(text: str, header: str) -> list[str]:
    """Each row's cell under ``header``, its lines joined by spaces: a bordered table's column read by position;
    a one-record-a-row table (no header row) gives each record's words."""
    words = lambda part: " ".join(re.sub(r"[│┃┏┓┗┛┡┩┢┪╇╈┳┻━─┌┐└┘├┤┼┬┴]", " ", part).split())  # noqa: E731
    lines = table(text).splitlines()
    if not lines[0].startswith("┏"):
        records = "\n".join(lines[1:-1]).split("├")
        return [words(record) for record in records]
    names = [cell.strip() for cell in lines[1].strip("┃").split("┃")]
    at = names.index(header)
    rows: list[list[str]] = []
    for line in lines[3:-1]:
        if not line.startswith("│"):  # a rule between rows
            rows.append([])
            continue
        cells = line.strip("│").split("│")
        if cells[0].strip() and rows and rows[-1]:  # a new row starts where its first cell is written
            rows.append([])
        if not rows:
            rows.append([])
        rows[-1].append(cells[at].strip())
    return [words(" ".join(row)) for row in rows if row]


@pytest.fixture(scope="module")
def errored(tmp_path_factory) -> dict:
    """openai and anthropic each answering 400 with an error body in its own envelope, `compare --send` at each
    width and once as JSON."""
    folder = tmp_path_factory.mktemp("errored")
    servers = {p: StandIn(p, default=Step.error(p, 400, MESSAGE)).start() for p in ("openai", "anthropic")}
    try:
        (folder / "err.yaml").write_text(
            CITY_WEATHER_SCENARIO + "providers:\n" + "".join(f"  {p}: {{base_url: '{s.base_url(p)}'}}\n"
                                                            for p, s in servers.items()), encoding="utf-8")
        command = ["compare", "err.yaml", "--send", "--retries", "0"]
        out = {"json": run_cli(command + ["-f", "json"], env=environment(80), cwd=folder)}
        for columns in WIDTHS:
            out[columns] = run_cli(command, env=environment(columns), cwd=folder)
    finally:
        for server in servers.values():
            server.stop()
    return out


@pytest.mark.parametrize("columns", WIDTHS)
def test_an_errored_provider_s_calls_cell_says_its_error_once_without_its_name(errored, columns):
    document = json.loads(errored["json"].stdout)
    done = errored[columns]
    assert done.returncode == 1, done.stderr  # every provider failed: exit 1, as the JSON's verdicts say
    assert all(len(line) <= columns for line in done.stdout.splitlines()), done.stdout
    whole = table(done.stdout)
    calls = column(done.stdout, "calls")
    assert len(calls) == len(document["providers"]), done.stdout
    for entry, cell in zip(document["providers"], calls):
        provider, error = entry["provider"], entry["error"]
        assert error.startswith(f"{provider}: 400 ") and MESSAGE in error, error  # the document's words, unchanged
        said = " ".join(error.removeprefix(f"{provider}: ").split())
        assert said in cell and cell.count(MESSAGE) == 1, (said, cell, done.stdout)  # the error, once
        assert f"{provider}:" not in cell and f"{provider}: 400" not in whole, (provider, done.stdout)
        assert len(re.findall(rf"(?<![\w-]){provider}(?![\w-])", whole)) == 1, (provider, done.stdout)


def interrupted_in_process(args: list[str], env: dict[str, str], cwd: Path, server: StreamServer, bodies: int) -> object:
    """``toolchoice ARGS`` in this process, with Ctrl-C (SIGINT, to this process's own handler) once ``bodies``
    requests arrived and their chunks went out; the command holds its streams open until then."""
    running = threading.Event()
    done = threading.Event()

    def press_ctrl_c() -> None:
        deadline = time.monotonic() + 30
        while len(server.bodies) < bodies and time.monotonic() < deadline and not done.is_set():
            time.sleep(0.02)
        time.sleep(0.5)  # the chunks are written at once; the server then writes nothing for 60 s
        if running.is_set() and not done.is_set():  # a real SIGINT to the main thread: its event loop wakes
            signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)

    presser = threading.Thread(target=press_ctrl_c, daemon=True)
    running.set()
    presser.start()
    try:
        result = run_cli(args, env=env, cwd=cwd)
    finally:
        done.set()
        running.clear()
        presser.join(5)
    return result


@pytest.fixture(scope="module")
def all_cut(tmp_path_factory) -> dict:
    """`compare --send --stream -n 3 -k 3` against a stand-in that writes three chunks (the call's name and the start
    of its arguments) and holds each stream open: Ctrl-C cuts all three. Per width, and once as JSON."""
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        pytest.skip("SIGINT is not Python's own handler here")
    folder = tmp_path_factory.mktemp("cut")
    (folder / "cut.yaml").write_text(CITY_WEATHER_SCENARIO, encoding="utf-8")
    out = {}
    for key in ("json",) + WIDTHS:
        with StreamServer(Script([Piece(SENT)], stall=60)) as server:
            args = ["compare", "cut.yaml", "--send", "-p", "openai", "--base-url", server.url + "/v1", "--gateway", "--stream",
                    "--retries", "0", "-n", "3", "-k", "3"] + (["-f", "json"] if key == "json" else [])
            out[key] = interrupted_in_process(args, environment(80 if key == "json" else key), folder, server, 3)
    return out


@pytest.mark.parametrize("columns", WIDTHS)
def test_every_sample_cut_shows_the_calls_begun_marked_as_cut(all_cut, columns):
    document = json.loads(all_cut["json"].stdout)
    (entry,) = document["providers"]
    cut = entry["cut"]
    assert len(cut) == 3 and entry["summary"] is None and entry["reply"] is None, entry  # no sample finished
    # what the stand-in wrote: the call's name and the start of its arguments, in every cut stream
    assert [[c["name"] for c in s["reply"]["tool_calls"]] for s in cut] == [["get_weather"]] * 3
    done = all_cut[columns]
    assert done.returncode == 130, done.stderr
    assert "Traceback" not in done.stderr and KEY not in done.stdout + done.stderr
    assert all(len(line) <= columns for line in done.stdout.splitlines()), done.stdout
    (words,) = column(done.stdout, "calls")
    for sample in cut:  # each cut sample, marked so, with the call it had begun and its arguments as they came
        call = sample["reply"]["tool_calls"][0]
        begun = f'sample {sample["sample"]} cut: {call["name"]}( {call["raw_arguments"]})'
        assert begun in words or begun.replace("( ", "(") in words, (begun, done.stdout)
    (verdict,) = column(done.stdout, "verdict")
    assert verdict == "cut 3" and "skipped" not in done.stdout, done.stdout


# ---- some samples finished, the others cut (trial13h) -----------------------------------------------------------
# `-n 3`: the first request to arrive is answered whole (the call and its finish), the other two streams held open
# and cut by Ctrl-C. The row showed the finished sample's call and "cut 2" alone; now the calls each cut stream had
# begun too, as the all-cut row shows them, up to five samples and then how many more (`-n 7`: six cut).
MIXED_WIDTHS = (60, 80, 100, 120)


def _mixed_run(folder: Path, samples: int, key: object) -> object:
    from test_stream_interrupt import FINISHED

    with StreamServer(Script([Piece(FINISHED)]), Script([Piece(SENT)], stall=60)) as server:
        args = ["compare", "cut.yaml", "--send", "-p", "openai", "--base-url", server.url + "/v1", "--gateway",
                "--stream", "--retries", "0", "-n", str(samples), "-k", str(samples)]
        args += ["-f", "json"] if key == "json" else []
        return interrupted_in_process(args, environment(80 if key == "json" else key), folder, server, samples)


@pytest.fixture(scope="module")
def mixed(tmp_path_factory) -> dict:
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        pytest.skip("SIGINT is not Python's own handler here")
    folder = tmp_path_factory.mktemp("mixed")
    (folder / "cut.yaml").write_text(CITY_WEATHER_SCENARIO, encoding="utf-8")
    out = {key: _mixed_run(folder, 3, key) for key in ("json",) + MIXED_WIDTHS}
    out["seven"], out["seven json"] = _mixed_run(folder, 7, 80), _mixed_run(folder, 7, "json")
    return out


def _begun(sample: dict) -> list[str]:
    """What a cut sample's row line says after its number (spaces aside: the cell may break after the bracket), from
    the document (which sample the stand-in finished is the one that arrived first: another run, another number)."""
    return [f'cut: {call["name"]}({call["raw_arguments"]})'.replace(" ", "") for call in sample["reply"]["tool_calls"]]


@pytest.mark.parametrize("columns", MIXED_WIDTHS)
def test_finished_and_cut_samples_show_the_calls_the_cut_ones_began(mixed, columns):
    document = json.loads(mixed["json"].stdout)
    (entry,) = document["providers"]
    cut = entry["cut"]
    # one sample finished (the stand-in's whole stream), two cut: as the document holds them
    assert entry["summary"]["samples"] == 1 and len(cut) == 2, entry
    finished = entry["reply"]["tool_calls"]
    assert [c["name"] for c in finished] == ["get_weather"] and finished[0]["arguments"] == {"city": "Paris"}
    assert [[c["name"] for c in s["reply"]["tool_calls"]] for s in cut] == [["get_weather"]] * 2
    done = mixed[columns]
    assert done.returncode == 130, done.stderr
    assert "Traceback" not in done.stderr and KEY not in done.stdout + done.stderr
    assert all(len(line) <= columns for line in done.stdout.splitlines()), done.stdout
    (words,) = column(done.stdout, "calls")
    bare = words.replace(" ", "")
    assert 'get_weather({"city":"Paris"})' in bare, done.stdout  # the finished sample's call, first
    # each cut sample, marked so, with the call it had begun and its arguments as they came
    numbers = re.findall(r"sample (\d+) cut:", words)
    assert len(numbers) == len(set(numbers)) == 2 and set(numbers) < {"1", "2", "3"}, done.stdout
    for begun in {b for sample in cut for b in _begun(sample)}:
        assert bare.count(begun) == sum(_begun(sample).count(begun) for sample in cut), (begun, done.stdout)
    assert bare.index('get_weather({"city":"Paris"})') < bare.index("cut:"), done.stdout
    (verdict,) = column(done.stdout, "verdict")
    assert "cut 2" in verdict, done.stdout


def test_more_than_five_cut_samples_are_counted_not_listed(mixed):
    document = json.loads(mixed["seven json"].stdout)
    (entry,) = document["providers"]
    cut = sorted(entry["cut"], key=lambda s: s["sample"])
    assert entry["summary"]["samples"] == 1 and len(cut) == 6, entry
    done = mixed["seven"]
    assert done.returncode == 130, done.stderr
    (words,) = column(done.stdout, "calls")
    shown = re.findall(r"sample (\d+) cut:", words)  # which ones: the streams held, not the one answered first
    assert len(set(shown)) == 5 and {int(n) for n in shown} < set(range(1, 8)), done.stdout
    assert f"{len(cut) - 5} more cut" in words and f"cut {len(cut)}" in " ".join(column(done.stdout, "verdict")), \
        done.stdout
