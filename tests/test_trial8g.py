"""A trial of `toolchoice run` against models that misbehave between steps (trial 8g): each test a defect found
driving `run` against `toolchoice mock` and the stand-ins of tests/servers.py on 127.0.0.1, failing before its fix."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from cli import run_cli  # noqa: E402

from toolchoice.providers.core.mock.script import load_script  # noqa: E402
from toolchoice.providers.core.mock.server import running_mock  # noqa: E402

KEY = "sk-trial-canary-0123456789abcdef"
KEYS = {name: KEY for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY")}

TOOLS = """tools:
  - {name: search, description: Search., parameters: {type: object, properties: {query: {type: string}}, required: [query]}}
  - {name: read_file, description: Read., parameters: {type: object, properties: {path: {type: string}}, required: [path]}}
tool_choice: auto
messages:
  - {role: user, content: Find it.}
"""


def toolchoice(*args: str) -> object:
    result = run_cli(args, env=KEYS | {"COLUMNS": "80"})
    assert KEY not in result.stdout + result.stderr and "Traceback" not in result.stderr
    return result


def _messages(request: dict) -> list:
    body = request["body"]
    return body.get("messages") or body.get("input")


def test_replay_of_a_results_from_run_answers_with_the_recorded_results(tmp_path: Path) -> None:
    """A loop run with `--results-from COMMAND --save DIR`, replayed offline (`run --replay DIR`, no command: it may
    have side effects, or need what only the live machine has), answered every call from `loop.results` instead of
    what the command had returned: step 1's results became "error: no result for 'search'", step 2's request was not
    the one sent (its tool message changed), and step 1's ledger warned loop.no_results for every tool. The recorded
    results (each saved step-NN.reply.json's `results`) now answer the calls of a replay, so the replayed requests are
    the recorded ones byte for byte (held against the request the mock received and `--save` kept)."""
    path = tmp_path / "loop.yaml"
    path.write_text(TOOLS + "loop:\n  max_steps: 3\n")
    script = tmp_path / "script.yaml"
    script.write_text("replies:\n  - call: search\n  - call: read_file\n  - text: done\n")
    saved = tmp_path / "saved"
    with running_mock("anthropic", script=load_script(script)) as mock:
        live = toolchoice("run", str(path), "-p", "anthropic", "--base-url", mock.base_url, "--save", str(saved),
                          "--format", "json", "--results-from", "cat >/dev/null; echo from-the-command")
        assert len(mock.records) == 3
    assert live.returncode == 0, live.stderr
    folder = saved / "anthropic" / "loop-001"
    sent = [json.loads((folder / f"step-0{n}.request.json").read_text()) for n in (1, 2, 3)]
    [answer] = [b for m in _messages(sent[1]) if m["role"] == "user" and isinstance(m["content"], list)
                for b in m["content"] if b.get("type") == "tool_result"]
    assert answer["content"] in ("from-the-command", [{"type": "text", "text": "from-the-command"}]), answer

    replayed = toolchoice("run", str(path), "-p", "anthropic", "--replay", str(saved), "--format", "json")
    assert replayed.returncode == 0, replayed.stderr
    [doc] = json.loads(replayed.stdout)["runs"][0]["loops"]
    assert [r["content"] for s in doc["steps"] for r in s["results"]] == ["from-the-command"] * 2
    assert [_messages(s["request"]) for s in doc["steps"]] == [_messages(r) for r in sent]
    codes = [e["code"] for s in doc["steps"] for e in s["ledger"]]
    assert "loop.no_results" not in codes and "loop.results_recorded" in codes
    assert doc["tool_results"] == {"total": 2, "errors": 0}
    # replayed for another provider, the recorded results answer there too
    other = toolchoice("run", str(path), "-p", "openai", "--replay", str(saved), "--format", "json")
    [doc] = json.loads(other.stdout)["runs"][0]["loops"]
    tool_messages = [m for m in doc["steps"][2]["request"]["body"]["messages"] if m["role"] == "tool"]
    assert [m["content"] for m in tool_messages] == ["from-the-command"] * 2
