"""An adversarial trial of the agent loop between its steps (`toolchoice run`), each test a defect found
driving `run` against `toolchoice mock` and recorded-shape bodies on 127.0.0.1, failing before its fix."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from cli import run_cli  # noqa: E402
from servers import StandIn, Step  # noqa: E402

from toolchoice.providers.core.mock.server import running_mock  # noqa: E402
from toolchoice.providers.core.scenario import load_scenario_text  # noqa: E402

KEY = "sk-trial-canary-0123456789abcdef"
KEYS = {name: KEY for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "AWS_BEARER_TOKEN_BEDROCK")}

TOOLS = """tools:
  - {name: search, description: Search., parameters: {type: object, properties: {query: {type: string}}, required: [query]}}
  - {name: read_file, description: Read., parameters: {type: object, properties: {path: {type: string}}, required: [path]}}
tool_choice: auto
messages:
  - {role: user, content: Find it.}
"""


def toolchoice(*args: str) -> object:
    result = run_cli(args, env=KEYS | {"COLUMNS": "200"})
    assert KEY not in result.stdout + result.stderr
    return result


def test_save_keeps_a_thinking_budget_the_scenario_wrote(tmp_path: Path) -> None:
    """`run --save` of a scenario with `thinking: {budget: 2048}` ended in "internal error: RepresenterError"
    (exit 70): the transcript scenario dumped the loader's ThinkingSetting record. The transcript now writes
    the setting as the scenario did, and reads back to the same setting."""
    path = tmp_path / "think.yaml"
    path.write_text(TOOLS + "providers:\n"
                    "  anthropic: {model: claude-sonnet-4-6, max_tokens: 4096, thinking: {budget: 2048}}\n"
                    "  gemini: {model: gemini-3-pro-preview, thinking: {type: adaptive, effort: high}}\n"
                    "loop:\n  max_steps: 3\n  results: {search: hits, read_file: text}\n")
    original = load_scenario_text(path.read_text(), "think.yaml")
    saved = tmp_path / "saved"
    with running_mock("anthropic") as mock:
        result = toolchoice("run", str(path), "-p", "anthropic", "--base-url", mock.base_url, "--save", str(saved))
    assert result.returncode == 0, result.stderr
    transcript = saved / "anthropic" / "loop-001" / "scenario.yaml"
    again = load_scenario_text(transcript.read_text(), str(transcript))
    for pid in ("anthropic", "gemini"):
        assert again.settings_for(pid).thinking_mode == original.settings_for(pid).thinking_mode
        assert again.settings_for(pid).thinking is True
    # the transcript's history holds the mock's thinking block before its call, as Anthropic wants it back
    assistant = next(m for m in again.messages if m.role == "assistant" and m.tool_calls)
    assert assistant.reasoning and assistant.reasoning[0].signature
    assert (saved / "anthropic" / "loop-001" / "loop.json").is_file()
