"""A model id whose version is spelled with the other separator (`claude-opus-5.5` where Anthropic writes
`claude-opus-5-5`, `gpt-5-5` where OpenAI writes `gpt-5.5`) matched only the family's base rules and silently
missed the model's own (the preserved-thinking warning and the forced-choice refusal of Opus 5.5 never came):
`model_rule.spelling` names the spelling the rules know. The ids are the providers' own: Anthropic's model pages
(platform.claude.com/docs/en/about-claude/models/opus-5-5/..., `claude-opus-5-5`), OpenAI's (`gpt-5.5`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cli import run_cli

ROOT = Path(__file__).resolve().parents[1]

SCENARIO = ("tools: [{name: a, parameters: {type: object}}]\ntool_choice: required\n"
            "messages: [{role: user, content: hi}]\n")


def _ledger(tmp_path: Path, provider: str, model: str) -> dict[str, str]:
    import json

    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO + f"providers:\n  {provider}: {{model: {model}}}\n", encoding="utf-8")
    done = run_cli(["render", str(path), "-p", provider, "-f", "json"])
    assert done.returncode in (0, 3), done.stderr
    return {e["code"]: e["message"] for e in json.loads(done.stdout)["ledger"]}


@pytest.mark.parametrize(("provider", "typo", "meant"), [
    ("anthropic", "claude-opus-5.5", "claude-opus-5-5"),
    ("bedrock", "anthropic.claude-sonnet-5.5", "claude-sonnet-5-5"),
    ("openai", "gpt-5-5", "gpt-5.5"),
])
def test_a_version_spelled_with_the_other_separator_is_named(tmp_path, provider, typo, meant):
    ledger = _ledger(tmp_path, provider, typo)
    assert meant in ledger["model_rule.spelling"], ledger


def test_ids_as_the_providers_spell_them_get_no_spelling_note():
    """Every model id the docs write (dozens, as the providers spell them)."""
    from toolchoice.providers.core import model_rules

    text = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "docs").glob("*.md"))
    ids = set(re.findall(r"\b(?:claude|gpt|gemini|mistral|magistral|deepseek|grok|command|nova|o\d)[a-z0-9.\-]*\d",
                         text))
    from toolchoice.providers.core.model_rule_data import RULES

    ids -= {"claude-opus-5.5", "gpt-5-5"}  # docs/model-rules.md's examples of the typo
    ids -= {rule.name for rule in RULES}  # a rule's name ("claude-sonnet-5.5") is no model id
    assert len(ids) > 50
    noted = [(p, m) for m in sorted(ids) for p in sorted(model_rules.FAMILY_PROVIDERS)
             if model_rules.spelling_note(p, m)]
    assert not noted, noted
