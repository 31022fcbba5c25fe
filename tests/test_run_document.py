"""`RunResult.document()` and `RunResult.write_json` are what `toolchoice run --format json` prints, for every run
size: loops held whole, a reduced run (`--repeat`: loops spooled as they end), a run shared out over forked
processes (`--processes`), one cut short by Ctrl-C, and one whose tool printed a key (redacted in both).

The truth is the command's own output: the real CLI (in-process through its app, or a real process where forks or
signals need one) against the repo's mock (`running_mock`) or a stand-in server on 127.0.0.1, for the same scenario
the library runs. Two runs differ only in what time and arrival order make: each step's and loop's
``latency_ms`` and the ids the mock numbers per server in arrival order (``call_mock_<request>_<n>``)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from cli import run_cli  # noqa: E402
from test_loop import EXE  # noqa: E402
from test_loop_scale import FOUR_STEPS, interrupted_in_loop_two  # noqa: E402

from toolchoice.providers.core import jobs, loop, loop_shards, runner  # noqa: E402
from toolchoice.providers.core.mock.server import running_mock  # noqa: E402
from toolchoice.providers.core.model import RenderOptions, ToolchoiceError  # noqa: E402
from toolchoice.providers.core.scenario import load_scenario  # noqa: E402

KEY = "sk-proj-RUNDOCKEY0123456789abcdef"
JOB = str(Path(__file__).with_name("run_document_job.py"))

LOOP = """\
tools:
  - {name: search, description: search the web, parameters: {type: object, properties: {query: {type: string}},
     required: [query]}}
tool_choice: auto
messages:
  - {role: user, content: find cats}
loop:
  max_steps: 4
  steps:
    - {tool_choice: search}
    - {tool_choice: search}
    - {tool_choice: search}
    - {tool_choice: none}
  results:
    search: {template: "results for {query}"}
"""


@pytest.fixture(autouse=True)
def key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)


def same_run(text: str, base_url: str) -> Any:
    """A document's text with what two runs of one scenario cannot share written out: the mock's URL (its port),
    every latency (a step's, an attempt's, a loop's, the percentiles of a summary) and the mock's arrival numbers."""
    text = text.replace(base_url, "BASE")
    text = re.sub(r"call_mock_\d+_", "call_mock_N_", text)
    return _timeless(json.loads(text))


def _timeless(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _timeless(v) for k, v in value.items() if k != "latency_ms"}
    return [_timeless(v) for v in value] if isinstance(value, list) else value


def cli_and_library(tmp_path: Path, *extra: str, repeat: int = 1, concurrency: int = 1,
                    results_from: str | None = None) -> tuple[str, Any, jobs.RunResult, str]:
    """The same scenario run by the command (in-process) and by ``jobs.run``, each against a fresh mock:
    (the command's stdout, the library's ``document()``, its result (closed), the bytes ``write_json`` wrote)."""
    path = tmp_path / "loop.yaml"
    path.write_text(LOOP, encoding="utf-8")
    with running_mock("openai") as mock:
        printed = run_cli(["run", str(path), "-p", "openai", "--base-url", mock.base_url, "--repeat", str(repeat),
                           "--concurrency", str(concurrency), "--retries", "0", "--format", "json", *extra]
                          + (["--results-from", results_from] if results_from else []))
        assert printed.returncode == 0, printed.stderr
        theirs = same_run(printed.stdout, mock.base_url)
    with running_mock("openai") as mock:
        options = loop.LoopOptions(RenderOptions(base_url=mock.base_url), results_from=results_from)
        with jobs.run(load_scenario(path), ["openai"], options, repeat=repeat,
                      settings=runner.SendSettings(retries=0, concurrency=concurrency)) as result:
            written: list[bytes] = []
            result.write_json(written.append)
            document = result.document()
        data = b"".join(written).decode("utf-8")
        assert json.loads(data) == document  # the bytes and the dict are one document
        mine = same_run(data, mock.base_url)
    assert mine == theirs
    return printed.stdout, document, result, data


def test_a_small_runs_document_is_what_the_command_prints(tmp_path: Path) -> None:
    printed, document, result, data = cli_and_library(tmp_path)
    assert result.reduced is None  # held whole
    [entry] = document["runs"]
    assert document["repeat"] == 1 and document["replay"] is False and document["scenario"] == str(tmp_path / "loop.yaml")
    assert [len(r["steps"]) for r in entry["loops"]] == [4]
    assert entry["loops"][0]["ended"]["reason"] == "no_tool_call"
    assert printed.count("\n") == data.count("\n") and data.endswith("}\n")  # laid out line for line alike


def test_a_reduced_runs_document_is_read_from_its_spool_and_is_what_the_command_prints(tmp_path: Path) -> None:
    printed, document, result, data = cli_and_library(tmp_path, repeat=5, concurrency=2)
    assert result.reduced is not None and result.reduced.spool is not None  # reduced as they ended, spooled
    assert all(r.steps == [] for r in result.runs)  # no loop's steps held: the document came from the spool
    [entry] = document["runs"]
    assert [r["loop"] for r in entry["loops"]] == [1, 2, 3, 4, 5]
    assert all(len(r["steps"]) == 4 for r in entry["loops"])
    assert entry["summary"]["loops"] == 5 and entry["summary"]["steps"][3]["reached"] == 5
    assert document["repeat"] == 5
    assert printed.count("\n") == data.count("\n")


def test_a_tool_that_prints_a_key_is_redacted_in_the_command_and_the_library_alike(tmp_path: Path) -> None:
    """`--results-from` echoing the key (a tool printing its configuration): the key went to the model in the next
    request; the command and the library both show its placeholder, in the loops held whole and in the spool."""
    echo = f"printf 'token {KEY}'"
    for repeat in (1, 3):
        printed, document, result, data = cli_and_library(tmp_path, repeat=repeat, results_from=echo)
        assert KEY not in printed and KEY not in data and KEY not in json.dumps(document)
        first = document["runs"][0]["loops"][0]
        assert first["steps"][0]["results"][0]["content"] == "token $OPENAI_API_KEY"
        assert "token $OPENAI_API_KEY" in json.dumps(first["steps"][1]["request"]["body"])


def job(tmp_path: Path, base_url: str, repeat: int, concurrency: int, processes: int, path: Path,
        ) -> subprocess.Popen[str]:
    args = {"scenario": str(path), "base_url": base_url, "repeat": repeat, "concurrency": concurrency,
            "processes": processes, "out": str(tmp_path / "lib")}
    return subprocess.Popen([sys.executable, JOB, json.dumps(args)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, "OPENAI_API_KEY": KEY})


@pytest.mark.skipif(not sys.platform.startswith("linux") or loop_shards.cpus() < 2, reason="shards fork: Linux, 2 CPUs")
def test_a_sharded_runs_document_is_what_the_command_prints_over_as_many_processes(tmp_path: Path) -> None:
    """100 loops of 4 steps (two shards of 200 requests) over `--processes 2`: the command and a Python program
    calling ``jobs.run(..., processes=2)`` (each a process of one thread, so each may fork), the same document."""
    path = tmp_path / "loop.yaml"
    path.write_text(LOOP, encoding="utf-8")
    with running_mock("openai") as mock:
        printed = subprocess.run([EXE, "run", str(path), "-p", "openai", "--base-url", mock.base_url, "--repeat", "100",
                                  "--concurrency", "4", "--processes", "2", "--retries", "0", "--format", "json"],
                                 capture_output=True, text=True, timeout=300, env={**os.environ, "OPENAI_API_KEY": KEY})
        assert printed.returncode == 0, printed.stderr
        theirs = same_run(printed.stdout, mock.base_url)
    with running_mock("openai") as mock:
        process = job(tmp_path, mock.base_url, 100, 4, 2, path)
        _, err = process.communicate(timeout=300)
        assert process.returncode == 0, err
        data = (tmp_path / "lib.bytes").read_text(encoding="utf-8")
        mine = same_run(data, mock.base_url)
        document = json.loads((tmp_path / "lib.dict.json").read_text(encoding="utf-8"))
    assert (tmp_path / "lib.shards").read_text() == "2"  # the library forked two shards
    assert json.loads(data) == document
    assert mine == theirs
    [entry] = document["runs"]
    assert [r["loop"] for r in entry["loops"]] == list(range(1, 101)) and entry["summary"]["loops"] == 100
    assert KEY not in printed.stdout + data


def test_a_run_cut_short_by_ctrl_c_documents_what_finished_as_the_command_does(tmp_path: Path) -> None:
    """Ctrl-C during loop 2 of 3: the command's document and a Python program's ``document()`` both hold loop 1
    whole, loop 2's finished step and loop 3 empty, each ended as interrupted."""
    path = tmp_path / "loop.yaml"
    path.write_text(FOUR_STEPS.replace("max_steps: 4", "max_steps: 2"), encoding="utf-8")

    def cut(command: list[str]) -> tuple[str, str, str]:
        return interrupted_in_loop_two(lambda base_url: command_process(command, base_url))

    def command_process(command: list[str], base_url: str) -> subprocess.Popen[str]:
        if command == ["cli"]:
            return subprocess.Popen([EXE, "run", str(path), "-p", "openai", "--base-url", base_url, "--repeat", "3",
                                     "--concurrency", "1", "--format", "json", "--retries", "0"],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                    env={**os.environ, "OPENAI_API_KEY": KEY})
        return job(tmp_path, base_url, 3, 1, 1, path)

    printed, err, base_url = cut(["cli"])
    assert "interrupted: 1 of 3 loops finished" in err
    _, err, lib_url = cut(["library"])
    assert "interrupted: 1 of 3 loops finished" in err
    data = (tmp_path / "lib.bytes").read_text(encoding="utf-8")
    assert json.loads(data) == json.loads((tmp_path / "lib.dict.json").read_text(encoding="utf-8"))
    assert same_run(data, lib_url) == same_run(printed, base_url)
    first, second, third = json.loads(data)["runs"][0]["loops"]
    assert (first["ended"]["reason"], len(first["steps"])) == ("max_steps", 2)
    assert (second["ended"]["reason"], len(second["steps"])) == ("interrupted", 1)
    assert (third["ended"]["reason"], third["steps"]) == ("interrupted", [])


def test_a_run_reduced_without_its_json_says_how_to_keep_it(tmp_path: Path) -> None:
    path = tmp_path / "loop.yaml"
    path.write_text(LOOP, encoding="utf-8")
    with running_mock("openai") as mock:
        options = loop.LoopOptions(RenderOptions(base_url=mock.base_url))
        with jobs.run(load_scenario(path), ["openai"], options, repeat=2, spool_json=False) as result:
            with pytest.raises(ToolchoiceError, match="spool_json=True"):
                result.document()


def test_a_closed_runs_document_says_when_to_ask_for_it(tmp_path: Path) -> None:
    path = tmp_path / "loop.yaml"
    path.write_text(LOOP, encoding="utf-8")
    with running_mock("openai") as mock:
        options = loop.LoopOptions(RenderOptions(base_url=mock.base_url))
        with jobs.run(load_scenario(path), ["openai"], options, repeat=2) as result:
            assert result.document()["runs"][0]["summary"]["loops"] == 2
    with pytest.raises(ToolchoiceError, match="dropped by close"):
        result.document()
