"""Found by trial6f (an adversarial trial of parse, compare --send, render --snapshot, providers --model,
doctor, init and schema); each test failed before its fix."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from servers import StandIn, Step

from cli import run_cli

ROOT = Path(__file__).resolve().parents[1]
MADE_UP = "zz-no-such-model-7"  # no provider has a model by this name: every rule set must call it unknown


def test_providers_model_says_a_made_up_model_is_unknown_for_every_provider_with_family_rules():
    """It was said unknown for bedrock alone (the one provider with an API-wide fact for it); openai,
    anthropic, gemini, deepseek and cohere, whose rules go per model family, were not mentioned."""
    result = run_cli(["providers", "--model", MADE_UP, "--format", "json"], cwd=ROOT)
    assert result.returncode == 0, result.stderr
    entries = {entry["provider"]: entry for entry in json.loads(result.stdout)}
    for provider in ("openai", "anthropic", "gemini", "deepseek", "cohere", "bedrock"):
        assert provider in entries and entries[provider]["known"] is False, (provider, sorted(entries))
    shown = run_cli(["providers", "--model", MADE_UP], cwd=ROOT, env=dict(os.environ, COLUMNS="200")).stdout
    line = next(line for line in shown.splitlines() if f"knows {MADE_UP}" in line)
    for provider in ("openai", "anthropic", "gemini", "deepseek", "cohere"):
        assert provider in line.split(f" knows {MADE_UP}")[0], line
    # bedrock's rule for every other model applies to it (the table's bedrock row): said on bedrock's own line,
    # not among the providers that know nothing of it
    assert f"bedrock: {MADE_UP} is in none of the model families its rules name" in shown, shown


def test_providers_model_empty_is_bad_input_not_the_matrix():
    """An empty --model (an unset shell variable) printed the whole support matrix as if no --model was given."""
    result = run_cli(["providers", "--model", ""], cwd=ROOT)
    assert result.returncode == 2, result.stdout[:300]
    assert "--model" in result.stderr and "Traceback" not in result.stderr


def test_init_into_a_folder_says_it_is_a_folder_and_does_not_offer_force(tmp_path):
    """`init d` said 'd exists (give another name, or --force to overwrite it)', and --force then failed with
    'cannot write d: Is a directory': the hint offered what cannot work."""
    folder = tmp_path / "scenarios"
    folder.mkdir()
    for extra in ([], ["--force"]):
        result = run_cli(["init", str(folder), *extra], cwd=tmp_path)
        assert result.returncode == 2, result.stdout
        assert "folder" in result.stderr and "--force" not in result.stderr, result.stderr
        assert list(folder.iterdir()) == []


# ---- a server answering in another API's shape (a base URL pointed at the wrong service) ------------------------

WEATHER = ROOT / "configs" / "weather.yaml"


@pytest.mark.parametrize("provider,shape", [("gemini", "openai"), ("gemini", "anthropic"),
                                            ("openai-responses", "openai"), ("openai-responses", "gemini"),
                                            ("cohere", "ollama"), ("ollama", "cohere")])
def test_send_does_not_judge_another_apis_reply_as_an_empty_one(tmp_path, provider, shape):
    """A recorded OpenAI Chat (or Anthropic, Gemini) reply with tool calls, served where Gemini or the Responses
    API was asked, was read as a reply with no calls and no text: verdict obeyed, exit 0 (Cohere and Ollama read
    each other's calls: phantom_tool, exit 4). It is a failed sample
    (exit 1) whose error names the shape the body has, as parse does."""
    with StandIn(provider, default=Step.reply(shape)) as server:
        text = WEATHER.read_text()
        text = text[: text.index("providers:")] + (f"providers:\n  {provider}: {{model: test-model, "
                                                   f"base_url: \"{server.base_url(provider)}\"}}\n")
        scenario = tmp_path / "scenario.yaml"
        scenario.write_text(text)
        env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
        env |= {"GEMINI_API_KEY": "test-key-1", "OPENAI_API_KEY": "test-key-1", "CO_API_KEY": "test-key-1"}
        result = run_cli(["send", str(scenario), "-p", provider, "--retries", "0", "-f", "json"], env=env)
    assert result.returncode == 1, result.stdout[:500]
    data = json.loads(result.stdout)
    assert data["verdict"]["category"] == "error"
    kind = {"openai": "OpenAI Chat Completions", "anthropic": "Anthropic Messages", "gemini": "Gemini",
            "ollama": "Ollama /api/chat", "cohere": "Cohere v2"}[shape]
    assert kind in json.dumps(data["error"]), data["error"]


def test_snapshot_drift_hint_names_a_folder_with_spaces_as_one_shell_word(tmp_path):
    """The hint 'toolchoice render ... --snapshot wire snaps --update' split the folder in two when pasted."""
    import shlex

    folder = tmp_path / "wire snaps"
    args = ["render", str(WEATHER), "-p", "openai", "--snapshot", str(folder)]
    assert run_cli([*args, "--update"], cwd=tmp_path).returncode == 0
    (folder / "weather" / "openai.json").write_text("{}\n")
    result = run_cli(args, cwd=tmp_path)
    assert result.returncode == 5, result.stderr
    hint = result.stdout.rsplit("(", 1)[1]
    words = shlex.split(hint.removesuffix(")\n").removesuffix(" accepts them"))
    assert words[words.index("--snapshot") + 1] == str(folder), hint
