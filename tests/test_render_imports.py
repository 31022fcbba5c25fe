"""What `toolchoice render` imports, seen from a fresh interpreter's ``sys.modules`` after the command ran
(start-up stays at the floor: a command imports only what it uses, ARCHITECTURE.md). The rule for counts of
choices (core/choice_count.py) is read only when a body asks for one (``n``, ``generationConfig``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_CHILD = (
    "import io, json, sys, contextlib\n"
    "from toolchoice.cli.app import run\n"
    "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
    "    code = run(sys.argv[1:])\n"
    "print(json.dumps({'code': code, 'out': out.getvalue(), 'modules': sorted(sys.modules)}))\n"
)


def command_in_child(*args: str, env: dict[str, str] | None = None) -> dict:
    """A command run in a fresh interpreter: its exit code, what it printed and every module it imported."""
    proc = subprocess.run([sys.executable, "-c", _CHILD, *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=120, check=True, env=env)
    return json.loads(proc.stdout)


def _render(*args: str) -> dict:
    return command_in_child("render", *args)


def test_render_without_a_count_of_choices_does_not_import_its_rule() -> None:
    seen = _render("configs/weather.yaml", "-p", "openai", "-f", "json")
    assert seen["code"] == 0
    assert "toolchoice.providers.core.choice_count" not in seen["modules"]
    assert "httpx" not in seen["modules"]


def test_a_count_of_choices_is_still_held_to_its_rule(tmp_path: Path) -> None:
    scenario = tmp_path / "n.yaml"
    text = (ROOT / "configs" / "weather.yaml").read_text(encoding="utf-8")
    scenario.write_text(text.replace("  groq: {model: openai/gpt-oss-120b}\n",
                                     "  groq: {model: openai/gpt-oss-120b, extra: {n: 2}}\n"), encoding="utf-8")
    seen = _render(str(scenario), "-p", "groq", "-f", "json")
    codes = [entry["code"] for entry in json.loads(seen["out"])["ledger"]]
    assert "choices.unsupported" in codes  # Groq's 400 words: 'n' : number must be at most 1
