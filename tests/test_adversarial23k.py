"""Adversarial round 23k on the day's merges (trial23k). Each test failed on main before its fix; real processes,
real FIFOs and real temporary folders."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cli import user_env
from sdk_types import missing
from test_mcp_duplicate_keys import RESULT, _stdio

ROOT = Path(__file__).resolve().parent.parent


# ---- 1. the channel's sweep and folders anyone may name in a shared /tmp -------------------------------------------

@pytest.mark.skipif(missing("mcp"), reason="needs the MCP SDK")
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs")
@pytest.mark.parametrize("pid", ["99999999999999999999", "\u00b2"])
def test_a_folder_named_for_no_pid_leaves_the_listing_whole(tmp_path: Path, pid: str) -> None:
    """``mcp_twice.sweep`` reads the pid in each ``toolchoice-mcp-*`` folder's name of the temporary folder, which
    any user may make. A 20-digit pid (os.kill: OverflowError) or a digit int() refuses ("²": str.isdigit says yes)
    was not caught: ``tools --mcp`` ended in "internal error" (exit 70) before the server started. Now such a folder is no run's:
    left as it is, the listing made, and a dead run's folder beside it still swept."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    odd = tmp / f"toolchoice-mcp-{pid}-abc"
    odd.mkdir()
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    dead = tmp / f"toolchoice-mcp-{ended.pid}-x1y2z3"
    dead.mkdir(mode=0o700)
    os.mkfifo(dead / "twice", 0o600)
    done = subprocess.run([sys.executable, "-m", "toolchoice.cli", "tools", "--mcp", _stdio(tmp_path, RESULT),
                           "--timeout", "60", "-f", "json"], capture_output=True, text=True, cwd=ROOT,
                          env={**user_env(), "TMPDIR": str(tmp)}, timeout=120)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["tools"]
    assert sorted(p.name for p in tmp.iterdir()) == [odd.name]
