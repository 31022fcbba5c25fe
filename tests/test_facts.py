"""Every capability row and every dated fact names its source and the date it was verified, and
the facts changed in issue 12 hold against the providers' own SDK files (expected values are
copied from those files, cited beside each)."""

from __future__ import annotations

import datetime
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cli import run_cli

from toolchoice.providers.core.capabilities import CAPABILITIES
from toolchoice.providers.core.facts import FACTS

ROOT = Path(__file__).resolve().parents[1]


def _is_date(text: str) -> bool:
    try:
        datetime.date.fromisoformat(text)
    except (TypeError, ValueError):
        return False
    return True


@pytest.mark.parametrize("provider", list(CAPABILITIES))
def test_every_capability_row_has_sources_and_a_verified_date(provider: str):
    cap = CAPABILITIES[provider]
    assert cap.sources and all(s.strip() for s in cap.sources), f"{provider}: no source"
    assert _is_date(cap.verified), f"{provider}: verified must be an ISO date, not {cap.verified!r}"


@pytest.mark.parametrize("provider", sorted(CAPABILITIES))
def test_no_default_model_has_a_documented_end_of_life(provider: str):
    """A default model must be current: none may appear in END_OF_LIFE (each entry quotes its provider's
    deprecation page), whatever the date. The 2026-11-26 re-verification moved groq, xai, cerebras and
    openrouter off models their providers retire."""
    from toolchoice.providers.core.model_rules import END_OF_LIFE, retiring

    assert END_OF_LIFE  # the table this checks against is not empty
    default = CAPABILITIES[provider].default_model
    entry = retiring(provider, default)
    assert entry is None, f"{provider}: default {default} retires on {entry.date} ({entry.source})"
    if provider == "openrouter":  # an OpenRouter id is the upstream provider's id behind a prefix
        upstream, _, model = default.partition("/")
        assert retiring(upstream, model) is None, default


@pytest.mark.parametrize("fact", FACTS, ids=[f.id for f in FACTS])
def test_every_fact_has_a_source_a_date_and_known_providers(fact):
    assert fact.source.strip(), f"{fact.id}: no source"
    assert _is_date(fact.verified), f"{fact.id}: verified must be an ISO date"
    assert fact.providers and set(fact.providers) <= set(CAPABILITIES)
    assert len({f.id for f in FACTS}) == len(FACTS)


def test_providers_json_carries_dates_and_facts():
    out = run_cli(["providers", "--format", "json"])  # in-process (tests/cli.py): the same command and exit code
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)
    by_id = {row["provider"]: row for row in rows}
    assert all(_is_date(row["verified"]) for row in rows)
    assert {f["id"] for f in by_id["together"]["facts"]} >= {"together.endpoint", "together.no_strict"}


def test_together_endpoint_and_strict_follow_its_sdk():
    # together 3.1.1 together/resources/chat/completions.py: without a base URL the SDK posts to
    # "https://api-inference.together.ai/v1/chat/completions"; together/types/tools_param.py's Function
    # has description, name, parameters: no strict.
    cap = CAPABILITIES["together"]
    assert cap.endpoint == "https://api-inference.together.ai/v1/chat/completions"
    assert cap.strict.level.value == "unsupported"


def _stale_facts(*argv: str) -> subprocess.CompletedProcess[str]:
    """bench/stale_facts.py's ``main`` (what its ``__main__`` passes to ``sys.exit``) in this process, with its
    output: two interpreter starts fewer than running the script."""
    import contextlib
    import io

    sys.path.insert(0, str(ROOT / "bench"))
    import stale_facts

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = stale_facts.main(list(argv))
    return subprocess.CompletedProcess(["stale_facts.py", *argv], code, out.getvalue(), err.getvalue())


def test_stale_facts_script_lists_old_facts_and_exits_nonzero():
    fresh = _stale_facts("--older-than", "100000")
    assert fresh.returncode == 0, fresh.stderr
    old = _stale_facts("--older-than", "0", "--today", "2100-01-01", "--format", "json")
    assert old.returncode == 1, old.stderr
    listed = json.loads(old.stdout)
    assert {item["id"] for item in listed} >= {"capability:together", "fact:together.endpoint"}
    assert all(item["age_days"] > 0 and item["source"] for item in listed)


def test_stale_sdks_asks_for_pre_releases_when_a_package_has_only_those(monkeypatch):
    """`pip index versions` lists nothing for a package with only pre-releases unless given --pre (pip 24's
    output below, for opentelemetry-proto-json on 2026-11-26): --sdks said "(registry did not say)" for the
    three pre-release-only packages of the test extra."""
    sys.path.insert(0, str(ROOT / "bench"))
    import stale_facts

    def pip(argv, **_):
        listed = "--pre" in argv
        out = "opentelemetry-proto-json (0.66b2)\nAvailable versions: 0.66b2, 0.66b1, 0.66b0, 0.65b0\n" if listed else ""
        err = "" if listed else "ERROR: No matching distribution found for opentelemetry-proto-json\n"
        return subprocess.CompletedProcess(argv, 0 if listed else 1, out, err)

    monkeypatch.setattr(subprocess, "run", pip)
    assert stale_facts.newest_release("opentelemetry-proto-json") == "0.66b2"
    monkeypatch.setattr(stale_facts, "pinned_sdks", lambda: [("opentelemetry-proto-json", "0.66b1")])
    assert stale_facts.stale_sdks() == [{"id": "sdk:opentelemetry-proto-json", "pinned": "0.66b1", "newest": "0.66b2",
                                         "stale": True}]


def test_stale_sdks_reads_every_pin_of_the_test_extra():
    """--sdks read the test extra up to its first "]", the one in "pydantic-ai-slim[openai]": every pin after it
    (langchain-google-genai, the == pins of mistralai, cohere, groq ... litellm) went unchecked (found 2026-11-27).
    The truth is pyproject's own list, read by a TOML parser."""
    tomllib = pytest.importorskip("tomllib")
    sys.path.insert(0, str(ROOT / "bench"))
    import stale_facts

    extra = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    pinned = {re.split(r"[\[=>]", req, maxsplit=1)[0]: re.split(r"==|>=", req)[1].split(",")[0]
              for req in extra["test"] if "==" in req or ">=" in req}
    for skipped in ("pytest", "hypothesis", "mcp"):
        pinned.pop(skipped, None)
    assert dict(stale_facts.pinned_sdks()) == pinned


# The 2026-11-26 re-verification (issue 25 point 1). Expected values are copied from the primary sources cited
# beside each; the rows must say what those sources say.

def test_default_models_are_the_ones_the_providers_document_for_tool_calling():
    # docs.together.ai/docs/inference/function-calling/best-practices: "Examples use GLM-5.1 (zai-org/GLM-5.1),
    # the recommended function-calling model"; togethercomputer/openapi commit 08c075d (2026-03-17) "Remove meta-llama
    # from serverless examples due to deprecation" dropped meta-llama/Meta-Llama-3.1-70B-Instruct-Turbo.
    assert CAPABILITIES["together"].default_model == "zai-org/GLM-5.1"
    # huggingface/hub-docs docs/inference-providers/tasks/chat-completion.md (2026-08-21), recommended models:
    # "openai/gpt-oss-120b: Great text generation model with top-notch tool calling capabilities."
    assert CAPABILITIES["huggingface"].default_model == "openai/gpt-oss-120b"


def test_azure_has_no_allowed_tools_form_but_parallel_and_strict():
    # Azure/azure-rest-api-specs .../AzureOpenAI/inference/stable/2024-10-21/inference.yaml (the api-version toolchoice
    # sends by default): chatCompletionToolChoiceOption "enum: none, auto, required" or chatCompletionNamedToolChoice;
    # "ParallelToolCalls ... default: true"; FunctionObject "strict". The v1 and preview specs type tool_choice alike.
    cap = CAPABILITIES["azure"]
    assert cap.allowed.level.value == "emulated"
    assert [cap.feature(f).usable for f in ("none", "required", "named", "parallel")] == [True] * 4
    assert cap.strict.level.value == "native"


def test_xai_strict_is_not_supported_and_parallel_is_its_rest_key():
    # xai-org/xai-sdk-ts spec/openapi.json ("xAI's REST API"): FunctionDefinition.strict "Not supported. Only
    # maintained for compatibility reasons."; ChatRequest "parallel_tool_calls": "If set to false, the model can
    # perform maximum one tool call."
    cap = CAPABILITIES["xai"]
    assert cap.strict.level.value == "unsupported"
    assert cap.parallel.usable and cap.parallel.wire == "parallel_tool_calls"


def test_deepseek_parallel_calls_rest_on_its_news_and_no_switch_is_sent():
    """api-docs.deepseek.com/news/news0725 (read 2026-11-27): 'It supports parallel function calls.'; no page documents
    a parallel_tool_calls switch, so a false is not sent and the ledger says several calls may come back."""
    assert any("It supports parallel function calls." in source for source in CAPABILITIES["deepseek"].sources)
    from toolchoice.providers.core.model import RenderOptions
    from toolchoice.providers.core.registry import translate
    from toolchoice.providers.core.scenario import load_scenario_text

    scenario = load_scenario_text("tools:\n  - name: x\ntool_choice: auto\nparallel_tool_calls: false\n"
                                  "messages:\n  - {role: user, content: hi}\n", "s.yaml")
    t = translate("deepseek", scenario, RenderOptions())
    assert "parallel_tool_calls" not in t.request.body
    [entry] = [e for e in t.ledger if e.code == "parallel.unsupported"]
    assert entry.severity == "warning" and "may return several calls" in entry.message


def test_claims_no_primary_source_settled_say_so():
    # DeepSeek's create-chat-completion reference and Groq's deprecations page were not readable (2026-11-26): the
    # claims resting on them must say they are unverified rather than pass as verified.
    assert CAPABILITIES["deepseek"].parallel.note.startswith("unverified:")
    from toolchoice.providers.core.model_rules import END_OF_LIFE

    groq = [e for e in END_OF_LIFE if e.providers == ("groq",)]
    assert groq and all(e.source.startswith("unverified at the primary source") for e in groq)
