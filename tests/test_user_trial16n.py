"""A framework user's trial of the `--dialect` pages (session 16, trial16n): what a user of LangChain, LiteLLM, the
AI SDK, the OpenAI Agents SDK or pydantic-ai met, each held here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli import run_cli
from test_readme import ROOT, examples
from test_user_trial12 import environment

PAGES = {"langchain": "langchain.md", "litellm": "litellm.md", "vercel": "vercel-ai-sdk.md",
         "openai-agents": "openai-agents.md", "pydantic-ai": "pydantic-ai.md"}
HINT = "where your call does not pass it, leave it out of the scenario and the request is sent"


def _refusals(scenario: Path, dialect: str, providers: str, choice: str) -> dict[str, str]:
    result = run_cli(["compare", str(scenario), "-p", providers, "--dialect", dialect, "--tool-choice", choice,
                      "-f", "json"], env=environment())
    entries = json.loads(result.stdout)["providers"]
    return {p["provider"]: e["message"] for p in entries for e in p["ledger"] if e["code"] == "dialect.refused"}


@pytest.mark.parametrize("dialect", ["litellm", "openai-agents"])
def test_a_refusal_for_the_scenario_s_parallel_tool_calls_says_to_leave_it_out(tmp_path, dialect):
    """`litellm.completion(..., tool_choice="required")` to Ollama, tried on configs/weather.yaml: refused for
    `parallel_tool_calls`, which the user's call never passed (the scenario sets it), and the message named only
    --drop-params. It now says where the parameter comes from; the claim is held to the command: without the
    scenario's line the same call is not refused. Where the refusal is for something else, no such words."""
    weather = ROOT / "configs" / "weather.yaml"
    refused = _refusals(weather, dialect, "ollama,cohere,gemini", "required")
    assert set(refused) == {"ollama", "cohere"}
    passed = "ModelSettings(" if dialect == "openai-agents" else "litellm.completion(..., "
    assert all(f"the scenario's parallel_tool_calls is passed as {passed}parallel_tool_calls=True): {HINT}" in m
               for m in refused.values()), refused
    without = tmp_path / "weather.yaml"
    without.write_text("\n".join(line for line in weather.read_text().splitlines()
                                 if not line.startswith("parallel_tool_calls:")))
    assert _refusals(without, dialect, "ollama,cohere,gemini", "required") == {}
    other = _refusals(weather, dialect, "gemini", "any") if dialect == "litellm" else {}
    assert all(HINT not in m for m in other.values()) and (dialect != "litellm" or other)


@pytest.mark.parametrize("dialect", sorted(PAGES))
def test_each_dialect_page_says_first_how_to_write_the_call_and_shows_a_run_example(dialect):
    """A framework user opens the page and asks "my code does X: what is my scenario?". The first paragraph after
    the title answers it on all five pages, in the same words ("Your call as a scenario"), and each page shows at
    least one `$ toolchoice ... --dialect D` example that tests/test_readme.py runs (litellm.md and openai-agents.md
    showed bare commands that nothing ran; vercel-ai-sdk.md none)."""
    text = (ROOT / "docs" / PAGES[dialect]).read_text()
    first = text.split("\n\n")[1]
    assert "Your call as a scenario" in first, first[:200]
    ran = [command for command, _, _ in examples(text) if f"--dialect {dialect}" in command]
    assert ran, f"docs/{PAGES[dialect]} shows no example of --dialect {dialect} that tests/test_readme.py runs"
