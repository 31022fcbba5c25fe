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

from cli import refused_saying, run_cli

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


# What an export without content writes for an entry (Chrome DevTools' HAR writer, front_end/models/har/Log.ts
# buildContent/buildResponse: content is {size, mimeType[, compression]}, text and encoding are added only to a HAR
# saved with content; the response keeps _transferSize and _error), and what it writes for a request that got no
# answer (status 0, _error net::ERR_...). HAR 1.2 makes content.text optional.
WITHOUT_CONTENT = {"content": {"size": 412, "mimeType": "application/json"}, "_transferSize": 687, "_error": None}
NO_ANSWER = {"status": 0, "statusText": "", "content": {"size": 0, "mimeType": "x-unknown"}, "_transferSize": 0,
             "_error": "net::ERR_ABORTED"}


@pytest.mark.parametrize("entry, step, shape, words", [
    (3, 2, WITHOUT_CONTENT, ("has no response body (response.content.text is missing or empty: the HAR was saved "
                             "without content)", "(save the HAR again with the response bodies: a browser's export "
                                                 "with content")),
    (1, 1, {"content": {"size": 412, "mimeType": "application/json", "text": ""}}, ("has no response body",)),
    (3, 2, NO_ANSWER, ("got no response (status 0: the request failed or was cancelled before an answer)",
                       "(record the conversation again until each of its calls is answered)")),
])
def test_a_har_entry_saved_without_its_response_body_is_one_line_naming_it(
        tmp_path: Path, entry: int, step: int, shape: dict, words: tuple[str, ...]) -> None:
    """tests/data/har/sdk-session.har (what openai-python sent and read, tests/data/har/SOURCES.md) with a call of
    its first conversation written as an export without content writes it: one line naming the file, the entry and
    the step, what to do, exit 2; nothing replayed (it used to end the loop at that step in a replay error, exit 1)."""
    har = json.loads((ROOT / "tests" / "data" / "har" / "sdk-session.har").read_text(encoding="utf-8"))
    response = har["log"]["entries"][entry]["response"]
    response.update(shape)
    if "text" not in shape.get("content", {"text": ""}):
        response["content"].pop("text", None)
    path = tmp_path / "session.har"
    path.write_text(json.dumps(har), encoding="utf-8")
    shown = run_cli(["run", "--replay", str(path), "--trace-id", "1", "-p", "openai", "--format", "json"], cwd=ROOT)
    refused_saying(shown, f"{path} log.entries[{entry}]: step {step} of conversation 1 (POST "
                          "/v1/chat/completions)", *words)
