"""`toolchoice render SCENARIO... --snapshot DIR [--update]`: golden wire snapshots as a CI step runs them
(the installed command, real files): they round-trip byte for byte elsewhere, and drift, missing and
extra files exit 5 with a readable diff per provider."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from toolchoice.providers.core.capabilities import CAPABILITIES, PROVIDER_IDS

from cli import run_cli

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = ROOT / "configs"
CANARY = "sk-CANARY-snapshot-7d0c-do-not-write"
KEY_VARS = sorted({env for cap in CAPABILITIES.values() for env in cap.key_env})


def _env(home: Path | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "TOOLCHOICE_DEBUG"}
    env.update({name: CANARY for name in KEY_VARS})  # a key in the environment must never reach a snapshot
    if home is not None:
        env["HOME"] = str(home)
    return env


def toolchoice(*args: str, cwd: Path, home: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The installed command in a real process."""
    exe = shutil.which("toolchoice", path=str(Path(sys.executable).parent))
    assert exe
    return subprocess.run([exe, *args], capture_output=True, text=True, cwd=cwd, env=_env(home), timeout=180)


def toolchoice_in_process(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The same command through tests/cli.py run_cli (the console script's entry, exit code and streams) without
    an interpreter start: the drift and usage-error cases. The round trip runs the installed command."""
    return run_cli(list(args), cwd=cwd, env=_env(None))


def project(tmp_path: Path, name: str) -> Path:
    """A copy of two example scenarios, plus one that imports tools from a file by its absolute path."""
    folder = tmp_path / name
    folder.mkdir()
    for scenario in ("weather.yaml", "allowed-subset.yaml"):
        shutil.copy(CONFIGS / scenario, folder)
    (folder / "tools.json").write_text(json.dumps([{"type": "function", "function": {
        "name": "lookup", "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}}}]), encoding="utf-8")
    (folder / "imported.yaml").write_text(f"tools:\n  - from: {folder / 'tools.json'}\ntool_choice: required\n"
                                          "messages: [{role: user, content: hi}]\n", encoding="utf-8")
    return folder


SCENARIOS = ("weather.yaml", "allowed-subset.yaml", "imported.yaml")


def test_update_then_check_round_trips_on_another_machine(tmp_path):
    here = project(tmp_path, "here")
    written = toolchoice("render", *SCENARIOS, "-p", "all", "--snapshot", "snaps", "--update", cwd=here)
    assert written.returncode == 0, written.stderr
    n = 3 * len(PROVIDER_IDS)
    assert written.stdout == f"snaps: {n} snapshot files; wrote {n} new, updated 0, removed 0\n"
    files = sorted(p.relative_to(here / "snaps").as_posix() for p in (here / "snaps").rglob("*") if p.is_file())
    assert files == sorted(f"{stem}/{pid}.json" for stem in ("weather", "allowed-subset", "imported") for pid in PROVIDER_IDS)
    for path in (here / "snaps").rglob("*.json"):
        text = path.read_text(encoding="utf-8")
        assert text == json.dumps(json.loads(text), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
        assert str(tmp_path) not in text and CANARY not in text, path
    imported = json.loads((here / "snaps" / "imported" / "openai.json").read_text(encoding="utf-8"))
    assert imported["ledger"][0]["message"] == "<scenario-dir>/tools.json: 1 tool read as OpenAI chat tools"
    assert imported["request"]["headers"]["Authorization"] == "Bearer $OPENAI_API_KEY"

    # another machine: another folder, another working directory and home; the same files must match
    there = tmp_path / "elsewhere" / "checkout"
    shutil.copytree(here, there)
    imported_there = (there / "imported.yaml").read_text(encoding="utf-8").replace(str(here), str(there))
    (there / "imported.yaml").write_text(imported_there, encoding="utf-8")
    checked = toolchoice("render", *SCENARIOS, "-p", "all", "--snapshot", "snaps", cwd=there, home=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout == f"snaps: {n} snapshot files match\n"
    again = toolchoice("render", *SCENARIOS, "-p", "all", "--snapshot", "snaps", "--update", cwd=there)
    assert again.stdout == f"snaps: {n} snapshot files; wrote 0 new, updated 0, removed 0\n"


def test_drift_missing_and_extra_exit_5_with_a_diff_per_provider(tmp_path):
    here = project(tmp_path, "p")
    assert toolchoice_in_process("render", "weather.yaml", "-p", "all", "--snapshot", "snaps", "--update", cwd=here).returncode == 0
    scenario = (here / "weather.yaml").read_text(encoding="utf-8")
    (here / "weather.yaml").write_text(scenario.replace("tool_choice: auto", "tool_choice: required"), encoding="utf-8")
    (here / "snaps" / "weather" / "cohere.json").unlink()
    (here / "snaps" / "weather" / "retired-provider.json").write_text("{}\n", encoding="utf-8")

    result = toolchoice_in_process("render", "weather.yaml", "-p", "all", "--snapshot", "snaps", cwd=here)
    assert result.returncode == 5, result.stdout + result.stderr
    out = result.stdout
    assert "--- weather/cohere.json: missing (render produces it; run with --update to write it)" in out
    assert "--- weather/retired-provider.json: extra (render no longer produces it; --update removes it)" in out
    assert "--- weather/openai.json: changed\n--- weather/openai.json (snapshot)\n+++ weather/openai.json (now)\n" in out
    # sorted keys: sent_choice and sent_parallel follow requested_tool_choice (hence its comma)
    assert '-  "requested_tool_choice": "auto",\n+  "requested_tool_choice": "required",\n' in out
    assert out.rstrip().endswith("(toolchoice render ... --snapshot snaps --update accepts them)")
    assert out.count(": changed\n") == len(PROVIDER_IDS) - 1  # every provider but the missing one

    accepted = toolchoice_in_process("render", "weather.yaml", "-p", "all", "--snapshot", "snaps", "--update", cwd=here)
    assert accepted.stdout == (f"snaps: {len(PROVIDER_IDS)} snapshot files; wrote 1 new, updated "
                               f"{len(PROVIDER_IDS) - 1}, removed 1\n")
    assert toolchoice_in_process("render", "weather.yaml", "-p", "all", "--snapshot", "snaps", cwd=here).returncode == 0


def test_snapshot_usage_errors_are_one_line(tmp_path):
    here = project(tmp_path, "u")
    several = toolchoice_in_process("render", "weather.yaml", "allowed-subset.yaml", "-p", "openai", "-f", "json", cwd=here)
    assert several.returncode == 0 and several.stderr == ""  # several scenarios per call (issue 14)
    assert [d["scenario"] for d in json.loads(several.stdout)] == ["weather.yaml", "allowed-subset.yaml"]
    update = toolchoice_in_process("render", "weather.yaml", "--update", cwd=here)
    assert (update.returncode, update.stderr) == (2, "toolchoice: error: --update goes with --snapshot DIR\n")
    (here / "sub").mkdir()
    shutil.copy(here / "weather.yaml", here / "sub" / "weather.yaml")
    same = toolchoice_in_process("render", "weather.yaml", "sub/weather.yaml", "--snapshot", "s", "--update", cwd=here)
    assert same.returncode == 2
    assert same.stderr == ("toolchoice: error: sub/weather.yaml and weather.yaml would share the snapshot folder "
                           "'weather' (give the scenario files different names)\n")
    assert not (here / "s").exists()
