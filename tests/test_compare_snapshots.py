"""`toolchoice compare --format json` (dry run, all providers) for every shipped scenario, pinned as
snapshots in tests/snapshots/compare/. A change in any provider's wire output or ledger shows up
here as a diff to review; refresh on purpose with TOOLCHOICE_UPDATE_SNAPSHOTS=1."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli import run_cli

ROOT = Path(__file__).resolve().parents[1]
SNAPSHOTS = ROOT / "tests" / "snapshots" / "compare"
CONFIGS = sorted((ROOT / "configs").glob("*.yaml"))


def compare_json(config: Path) -> tuple[int, str]:
    """``toolchoice compare`` in this process (tests/cli.py run_cli: the console script's entry, exit code and
    streams, without an interpreter start per scenario); test_render_snapshots runs the installed command."""
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    result = run_cli(["compare", f"configs/{config.name}", "--providers", "all", "--format", "json"], cwd=ROOT, env=env)
    assert result.stderr == ""
    return result.returncode, result.stdout


# the day the snapshots were written: a model's end-of-life warning counts the days left from it, so the
# snapshots hold on any later day (they failed from 2026-11-27 on: '14 days from now' against '15')
SNAPSHOT_DAY = "2026-11-26"


@pytest.fixture(autouse=True)
def snapshot_day(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    from toolchoice.providers.core import model_rules

    monkeypatch.setattr(model_rules, "_today", lambda: SNAPSHOT_DAY)
    model_rules.eol_warning.cache_clear()  # cached per model for the process: an earlier test's day, then this one's
    yield
    model_rules.eol_warning.cache_clear()


def test_every_shipped_scenario_has_a_snapshot():
    assert sorted(p.stem for p in SNAPSHOTS.glob("*.json")) == sorted(c.stem for c in CONFIGS)


@pytest.mark.parametrize("config", CONFIGS, ids=[c.stem for c in CONFIGS])
def test_compare_dry_run_matches_its_snapshot(config: Path):
    code, out = compare_json(config)
    data = json.loads(out)
    snapshot = SNAPSHOTS / f"{config.stem}.json"
    if os.environ.get("TOOLCHOICE_UPDATE_SNAPSHOTS"):
        snapshot.parent.mkdir(parents=True, exist_ok=True)
        snapshot.write_text(json.dumps({"exit_code": code, "output": data}, indent=2, ensure_ascii=False) + "\n")
    expected = json.loads(snapshot.read_text())
    assert code == expected["exit_code"]
    assert data == expected["output"]
