"""Ctrl-C keeps what finished, and a --save folder holds one run (issue 16, findings 14 and 15).

A real process is interrupted with a real SIGINT while it waits on stand-in servers (tests/servers.py)
that answer slowly; what it printed and saved is read afterwards. The signal is sent once the process
has shown it is where the test needs it (a sample saved, the next request arrived), not after a fixed
time."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Callable

from servers import CLI, StandIn, Step

from cli import run_cli

ROOT = Path(__file__).resolve().parents[1]
WEATHER = ROOT / "configs" / "weather.yaml"
KEY = "sk-interrupt-test-0123456789abcdef"


def env(**extra: str) -> dict[str, str]:
    out = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    out.update(OPENAI_API_KEY=KEY, ANTHROPIC_API_KEY=KEY, NO_PROXY="127.0.0.1", COLUMNS="120", NO_COLOR="1", **extra)
    return out


def interrupt_when(argv: list[str], ready: Callable[[], bool]) -> subprocess.CompletedProcess[str]:
    """Start ``argv``, send SIGINT as soon as ``ready()`` (checked every 20 ms, for at most 60 s)."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env(), cwd=ROOT)
    deadline = time.monotonic() + 60
    while not ready() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert proc.poll() is None, "the command ended before it could be interrupted"
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)


def test_ctrl_c_during_send_repeat_prints_and_keeps_the_finished_samples(tmp_path):
    saved = tmp_path / "saved"
    with StandIn("openai", default=Step.reply("openai", delay=0.2)) as server:
        # one at a time: the second request arrives once the first sample is saved, and waits 0.2 s
        result = interrupt_when([*CLI, "send", str(WEATHER), "-p", "openai", "--base-url", server.base_url(),
                                 "--repeat", "40", "--concurrency", "1", "--save", str(saved), "-f", "json"],
                                lambda: (saved / "sample-001.reply.json").exists() and len(server.requests) >= 2)
    assert result.returncode == 130, result.stderr
    data = json.loads(result.stdout)
    done = data["partial"]["done"]
    assert data["partial"]["requested"] == 40 and 1 <= done < 40
    assert data["samples"] == done
    assert "interrupted" in result.stderr and "Traceback" not in result.stderr
    replies = sorted(p.name for p in saved.iterdir() if p.name.endswith(".reply.json"))
    assert len(replies) == done  # each finished sample saved whole, none half-written
    assert not [p for p in saved.iterdir() if p.name.endswith(".partial")]
    assert KEY not in result.stdout + result.stderr


def test_ctrl_c_during_compare_send_shows_the_providers_that_answered(tmp_path):
    scenario = tmp_path / "two.yaml"
    saved = tmp_path / "saved"  # openai's saved reply says its sample is complete: then the signal
    with StandIn("openai", default=Step.reply("openai", delay=0.05)) as fast, \
            StandIn("anthropic", default=Step.reply("anthropic", delay=30)) as slow:
        scenario.write_text(WEATHER.read_text().split("providers:")[0] + "providers:\n"
                            f"  openai: {{model: m, base_url: \"{fast.base_url()}\"}}\n"
                            f"  anthropic: {{model: m, base_url: \"{slow.base_url('anthropic')}\"}}\n")
        result = interrupt_when([*CLI, "compare", str(scenario), "--send", "-f", "json", "--retries", "0",
                                 "--save", str(saved)],
                                lambda: (saved / "openai" / "sample-001.reply.json").exists() and len(slow.requests) == 1)
    assert result.returncode == 130, result.stderr
    data = json.loads(result.stdout)
    assert data["partial"] is True
    by_id = {p["provider"]: p for p in data["providers"]}
    assert by_id["openai"]["reply"]["tool_calls"], by_id["openai"]
    assert "interrupted" in by_id["anthropic"]["error"]
    assert not list((saved / "anthropic").iterdir())  # nothing of the interrupted provider was saved


def test_a_reused_save_folder_holds_only_the_new_runs_samples(tmp_path):
    saved = tmp_path / "saved"
    with StandIn("openai") as server:
        first = run_cli(["send", str(WEATHER), "-p", "openai", "--base-url", server.base_url(), "--repeat", "3",
                         "--save", str(saved), "-f", "json"], env=env())
        assert first.returncode in (0, 4), first.stderr
        assert len([p for p in saved.iterdir() if p.name.endswith(".response.json")]) == 3
        server.script(Step.error("openai", 400, "bad request"))
        second = run_cli(["send", str(WEATHER), "-p", "openai", "--base-url", server.base_url(), "--retries", "0",
                          "--save", str(saved), "-f", "json"], env=env())
    assert second.returncode == 1
    names = sorted(p.name for p in saved.iterdir())
    assert names == ["sample-001.reply.json", "sample-001.request.json", "sample-001.response.json"]
    reply = json.loads((saved / "sample-001.reply.json").read_text())
    response = json.loads((saved / "sample-001.response.json").read_text())
    assert reply["status"] == 400 and "bad request" in reply["error"] and "error" in response


def test_ctrl_c_during_probe_shows_the_questions_answered_and_saves_no_overlay(tmp_path):
    overlay = tmp_path / "overlay.json"
    with StandIn("openai", default=Step.reply("openai", delay=0.3)) as server:
        # one sample per question, one at a time: the third request means two questions were answered
        result = interrupt_when([*CLI, "probe", "-p", "openai", "--base-url", server.base_url(), "--repeat", "1",
                                 "--concurrency", "1", "--save", str(overlay), "-f", "json"],
                                lambda: len(server.requests) >= 3)
    assert result.returncode == 130, result.stderr
    data = json.loads(result.stdout)
    done = data["partial"]["done"]
    assert 2 <= done < data["partial"]["requested"] == len(data["questions"])
    asked = [q for q in data["questions"] if q["samples"]]
    assert len(asked) == done and all(q["result"] != "not asked" for q in asked)
    assert data["questions"][-1]["evidence"].startswith("interrupted")
    assert not overlay.exists()  # a partial measurement is not a capability overlay
    assert "interrupted: " in result.stderr and "Traceback" not in result.stderr
    assert KEY not in result.stdout + result.stderr
