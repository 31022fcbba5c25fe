"""Ctrl-C keeps what finished, and a --save folder holds one run (issue 16, findings 14 and 15).

A real process is interrupted with a real SIGINT while it waits on stand-in servers (tests/servers.py)
that answer slowly; what it printed and saved is read afterwards."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

from servers import CLI, StandIn, Step

from cli import run_cli

ROOT = Path(__file__).resolve().parents[1]
WEATHER = ROOT / "configs" / "weather.yaml"
KEY = "sk-interrupt-test-0123456789abcdef"


def env(**extra: str) -> dict[str, str]:
    out = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    out.update(OPENAI_API_KEY=KEY, ANTHROPIC_API_KEY=KEY, NO_PROXY="127.0.0.1", COLUMNS="120", NO_COLOR="1", **extra)
    return out


def interrupt_after(argv: list[str], seconds: float) -> subprocess.CompletedProcess[str]:
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env(), cwd=ROOT)
    time.sleep(seconds)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)


def test_ctrl_c_during_send_repeat_prints_and_keeps_the_finished_samples(tmp_path):
    saved = tmp_path / "saved"
    with StandIn("openai", default=Step.reply("openai", delay=0.4)) as server:
        result = interrupt_after([*CLI, "send", str(WEATHER), "-p", "openai", "--base-url", server.base_url(),
                                  "--repeat", "40", "--concurrency", "1", "--save", str(saved), "-f", "json"], 3.5)
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
    with StandIn("openai", default=Step.reply("openai", delay=0.05)) as fast, \
            StandIn("anthropic", default=Step.reply("anthropic", delay=30)) as slow:
        scenario.write_text(WEATHER.read_text().split("providers:")[0] + "providers:\n"
                            f"  openai: {{model: m, base_url: \"{fast.base_url()}\"}}\n"
                            f"  anthropic: {{model: m, base_url: \"{slow.base_url('anthropic')}\"}}\n")
        result = interrupt_after([*CLI, "compare", str(scenario), "--send", "-f", "json", "--retries", "0"], 3.0)
    assert result.returncode == 130, result.stderr
    data = json.loads(result.stdout)
    assert data["partial"] is True
    by_id = {p["provider"]: p for p in data["providers"]}
    assert by_id["openai"]["reply"]["tool_calls"], by_id["openai"]
    assert "interrupted" in by_id["anthropic"]["error"]


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
