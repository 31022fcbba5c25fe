"""`run --replay` reaching a step the recording holds no reply for says so, as the replay's error (type `replay`):
not "transport_error: connection failed", since nothing connects (providers/core/loop_replay.Transcript.unrecorded).

Truth from outside the code: the saved run in tests/data/loops/planner-loop-gemma-270m (what `run --save` wrote for
a real model, six steps), with a step's files taken out, replayed through the real CLI entry on the recorded
provider (the recorded bytes through the mock transport) and on another (the recorded replies judged there)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cli import run_cli

ROOT = Path(__file__).resolve().parents[1]
SAVED = ROOT / "tests" / "data" / "loops" / "planner-loop-gemma-270m"


def _without(tmp_path: Path, step: int) -> Path:
    folder = tmp_path / "saved"
    shutil.copytree(SAVED, folder)
    for path in (folder / "openai" / "loop-001").glob(f"step-{step:02d}.*"):
        path.unlink()
    return folder


@pytest.mark.parametrize("provider, step, held, what", [
    ("openai", 6, "steps 1-5", "the replayed loop went on past the recorded run"),
    ("anthropic", 3, "steps 1-2, 4-6", "the recording kept no answer for it"),
])
def test_a_step_with_no_recorded_reply_says_so(tmp_path: Path, provider: str, step: int, held: str, what: str) -> None:
    folder = _without(tmp_path, step)
    shown = run_cli(["run", "configs/planner-loop.yaml", "-p", provider, "--model", "gemma-3-270m", "--replay",
                     str(folder), "--format", "json"], cwd=ROOT)
    assert shown.returncode == 1, shown.stderr  # a step failed: the loop's error, as a live run's
    loop = json.loads(shown.stdout)["runs"][0]["loops"][0]
    assert loop["ended"]["reason"] == "error" and loop["ended"]["step"] == step
    error = loop["steps"][-1]["reply"]["error"]
    assert error["type"] == "replay" and error["status"] is None
    assert error["message"].startswith(f"the recording holds no reply for step {step} ({folder / 'openai' / 'loop-001'}"
                                       f": it holds {held}), so nothing answers it: {what}"), error["message"]
    assert "connection" not in json.dumps(loop) and "transport_error" not in json.dumps(loop)


def test_a_har_entry_saved_without_its_response_says_the_recording_kept_none(tmp_path: Path) -> None:
    """tests/data/har/sdk-session.har (what openai-python sent and read, tests/data/har/SOURCES.md) with the second
    call of its first conversation saved without a response body, as devtools keeps some: step 2 of the replay."""
    har = json.loads((ROOT / "tests" / "data" / "har" / "sdk-session.har").read_text(encoding="utf-8"))
    del har["log"]["entries"][3]["response"]["content"]["text"]
    path = tmp_path / "session.har"
    path.write_text(json.dumps(har), encoding="utf-8")
    shown = run_cli(["run", "--replay", str(path), "--trace-id", "1", "-p", "openai", "--format", "json"], cwd=ROOT)
    loop = json.loads(shown.stdout)["runs"][0]["loops"][0]
    assert loop["ended"]["reason"] == "error" and loop["ended"]["step"] == 2
    error = loop["steps"][-1]["reply"]["error"]
    assert error["type"] == "replay" and error["message"].startswith(
        f"the recording holds no reply for step 2 ({path}: it holds step 1), so nothing answers it: the recording "
        "kept no answer for it"), error["message"]
