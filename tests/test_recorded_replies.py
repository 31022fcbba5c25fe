"""Every recorded reply under tests/data/responses/<provider id>/ parses to what its .expect.json says.

The expected calls, finish reason and text were written by hand from each recording (the sources are
in each folder's SOURCES.md), so a provider added through ARCHITECTURE.md's checklist has its
fixtures checked here without a test of its own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolchoice.providers.core.capabilities import PROVIDER_IDS
from toolchoice.providers.core.reply import read_reply

DATA = Path(__file__).parent / "data" / "responses"
CASES = sorted((folder.name, expect) for folder in DATA.iterdir() if folder.name in PROVIDER_IDS
               for expect in folder.glob("*.expect.json") if not expect.name.startswith("error-"))


def test_every_provider_with_recordings_is_covered():
    assert {provider for provider, _ in CASES} >= {"openai", "anthropic", "gemini", "bedrock", "cohere", "cerebras"}


@pytest.mark.parametrize("provider, expect", CASES, ids=[f"{p}-{e.name[:-12]}" for p, e in CASES])
def test_a_recorded_reply_parses_to_its_expectation(provider: str, expect: Path) -> None:
    expected = json.loads(expect.read_text(encoding="utf-8"))
    body_path = expect.with_name(expect.name[: -len(".expect.json")] + ".json")
    body = json.loads(body_path.read_text(encoding="utf-8"))
    reply = read_reply(provider, 200, body, body_path.read_text(encoding="utf-8"))
    assert reply.error is None, reply.error
    assert [{"id": c.id, "name": c.name, "arguments": c.arguments} for c in reply.tool_calls] == \
        [{"id": c.get("id"), "name": c["name"], "arguments": c["arguments"]} for c in expected["calls"]]
    assert reply.finish_reason == expected["finish_reason"]
    if "text" in expected:
        assert (reply.text or None) == (expected["text"] or None)  # no text: "" or None, as each API sends it
    if "usage" in expected:
        assert reply.usage.to_json() == expected["usage"]
