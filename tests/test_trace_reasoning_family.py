"""Whose reasoning state a traced call holds is its provider's (its module's ``REASONING_FAMILY``), or the trace
format's where the format says whose messages it writes; a provider toolchoice has no row for is said to be unknown,
and its reasoning state is not read as another API's (it was read as OpenAI chat's without a word).

Truth from outside the code: the OTel GenAI input/output messages schema (semantic-conventions
gen-ai-output-messages.json: a part ``{"type": "reasoning", "content": ...}``) names no provider's form, and the older
``gen_ai.content.prompt`` / ``gen_ai.content.completion`` events (semantic-conventions v1.26.0
docs/gen-ai/llm-spans.md) are "RECOMMENDED to format ... as JSON string matching OpenAI messages format"."""

from __future__ import annotations

import json
from pathlib import Path

from toolchoice.providers.core.trace_scenario import import_trace

DATA = Path(__file__).parent / "data" / "traces"
THOUGHT = "The user wants Paris: call get_weather."
REASONING_OUTPUT = json.dumps([{"role": "assistant", "parts": [{"type": "reasoning", "content": THOUGHT},
                                                               {"type": "tool_call", "name": "get_weather",
                                                                "arguments": {"city": "Paris"}}]}])


def _trace(tmp_path: Path, provider: str) -> Path:
    """genai-structured-no-ids.json with its first reply holding a reasoning part, filed under ``provider``."""
    document = json.loads((DATA / "genai-structured-no-ids.json").read_text(encoding="utf-8"))
    spans = [s for rs in document["resourceSpans"] for ss in rs["scopeSpans"] for s in ss["spans"]]
    for span in spans:
        for attribute in span["attributes"]:
            if attribute["key"] == "gen_ai.provider.name":
                attribute["value"] = {"stringValue": provider}
    first = next(a for a in spans[0]["attributes"] if a["key"] == "gen_ai.output.messages")
    first["value"] = {"stringValue": REASONING_OUTPUT}
    path = tmp_path / "t.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_a_known_provider_s_reasoning_is_its_api_s(tmp_path: Path) -> None:
    [imported] = import_trace(_trace(tmp_path, "gcp.gemini"))
    assert imported.replies[0]["reasoning"] == [{"family": "gemini", "text": THOUGHT}]
    assert not [n for n in imported.notes if n.code == "trace.reasoning_unknown"]


def test_an_unknown_provider_s_reasoning_is_said_and_not_read_as_openai_chat(tmp_path: Path) -> None:
    [imported] = import_trace(_trace(tmp_path, "acme.llm"))
    assert "reasoning" not in imported.replies[0]  # it was [{"family": "openai-chat", ...}], unsaid
    [said] = [n for n in imported.notes if n.code == "trace.reasoning_unknown"]
    assert said.severity == "warning" and '"acme.llm"' in said.message and "1 item" in said.message
    assert [n.code for n in imported.notes if n.code == "trace.provider_unknown"] == ["trace.provider_unknown"]


def test_the_older_events_are_the_format_s_messages_whoever_answered(tmp_path: Path) -> None:
    """The v1.26 events say their JSON is in OpenAI's messages format: a reasoning part there is that format's
    (openai's row, whose module is OpenAI chat's), under an unknown provider too; nothing is said unknown."""
    completion = json.dumps([{"role": "assistant", "parts": [{"type": "reasoning", "content": THOUGHT},
                                                             {"type": "text", "content": "21 C"}]}])
    span = {"traceId": "5b8efff798038103d269b633813fc60c", "spanId": "051581bf3cb55c13", "name": "chat m",
            "startTimeUnixNano": "1", "endTimeUnixNano": "2",
            "attributes": [{"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}},
                           {"key": "gen_ai.system", "value": {"stringValue": "acme.llm"}}],
            "events": [{"name": "gen_ai.content.prompt", "attributes": [{"key": "gen_ai.prompt", "value": {
                           "stringValue": json.dumps([{"role": "user", "content": "Weather in Paris?"}])}}]},
                       {"name": "gen_ai.content.completion", "attributes": [{"key": "gen_ai.completion", "value": {
                           "stringValue": completion}}]}]}
    path = tmp_path / "older.json"
    path.write_text(json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": [span]}]}]}), encoding="utf-8")
    [imported] = import_trace(path)
    assert imported.replies[0]["reasoning"] == [{"family": "openai-chat", "text": THOUGHT}]
    assert not [n for n in imported.notes if n.code == "trace.reasoning_unknown"]
