"""`toolchoice compare --send` against real local servers: concurrency by a rendezvous (no clock), one dead provider
leaves the others intact, bodies equal render's, keys only in headers, argument diff."""

from __future__ import annotations

import json
import os
import socket
import subprocess
from pathlib import Path
from typing import Any

import pytest
from servers import Rendezvous, StandIn, Step

from toolchoice.providers.core.argdiff import argument_diff
from toolchoice.providers.core.model import Reply, ToolCall
from cli import record_retry_waits, run_cli

ROOT = Path(__file__).resolve().parents[1]
CANARY = "sk-CANARY-compare-7d1b"
KEYS = {"OPENAI_API_KEY": CANARY, "ANTHROPIC_API_KEY": CANARY, "GEMINI_API_KEY": CANARY,
        "MISTRAL_API_KEY": CANARY, "CO_API_KEY": CANARY, "GROQ_API_KEY": CANARY}
PROVIDERS = ["openai", "anthropic", "gemini", "mistral", "cohere"]


def toolchoice(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return run_cli(args, env=env)


def scenario_for(tmp_path: Path, urls: dict[str, str]) -> Path:
    """configs/weather.yaml with every provider pointed at a local server."""
    text = (ROOT / "configs/weather.yaml").read_text()
    text = text[: text.index("providers:")] + "providers:\n"
    for provider, url in urls.items():
        text += f"  {provider}: {{model: test-model, base_url: \"{url}\"}}\n"
    path = tmp_path / "scenario.yaml"
    path.write_text(text)
    return path


def dead_url() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"  # nothing listens there any more: connection refused


def env_with_keys() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.endswith(("_API_KEY", "_TOKEN"))} | KEYS


@pytest.fixture()
def servers():
    started = {p: StandIn(p, default=Step.reply(p)).start() for p in PROVIDERS}
    yield started
    for server in started.values():
        server.stop()


def test_compare_send_runs_providers_concurrently_and_a_dead_one_sinks_nothing(tmp_path, servers, monkeypatch):
    # Concurrency without a clock: each live server holds its request until all five have arrived. Serial sending
    # never gets a second request out while the first is held; the gate's 30 s (under the default --timeout of
    # 120 s) only ends that wait, and the gate then says how many came.
    gate = Rendezvous(len(PROVIDERS))
    for server in servers.values():
        server.default = Step.reply(server.provider, gate=gate)
    slept = record_retry_waits(monkeypatch)  # the dead provider's backoff: recorded, not slept
    urls = {p: s.base_url(p) for p, s in servers.items()} | {"groq": dead_url()}
    path = scenario_for(tmp_path, urls)
    env = env_with_keys()

    result = toolchoice("compare", str(path), "--send", "-f", "json", "--retries", "1", env=env)
    assert gate.failure is None, gate.failure
    assert result.returncode == 1, result.stderr  # one provider failed
    data = json.loads(result.stdout)
    assert [p["provider"] for p in data["providers"]] == PROVIDERS + ["groq"]
    assert data["wall_ms"] > 0  # reported; how small it is against one provider alone is bench/concurrency.py's

    by_id = {p["provider"]: p for p in data["providers"]}
    assert "groq" in by_id and by_id["groq"]["verdict"]["category"] == "error"
    assert "groq:" in by_id["groq"]["error"] and "connect" in by_id["groq"]["error"].lower()
    assert [a["wait_s"] for a in by_id["groq"]["attempts"]] == [round(slept[0], 3), 0.0] and len(slept) == 1
    assert by_id["groq"]["attempts"][0]["wait_source"] == "backoff" and 0.375 <= slept[0] <= 0.5
    for provider in PROVIDERS:
        entry = by_id[provider]
        assert entry["error"] is None, entry["error"]
        assert entry["reply"]["tool_calls"], provider
        assert entry["verdict"]["category"] in ("obeyed", "phantom_tool", "invalid_arguments"), entry["verdict"]

    # What each server received is exactly render's body, and the key arrived only in the auth header.
    for provider, server in servers.items():
        rendered = json.loads(toolchoice("render", str(path), "-p", provider, "-f", "json", env=env).stdout)
        received = server.requests[-1]
        assert received.json == rendered["request"]["body"], provider
        assert CANARY in " ".join(received.headers.values())
        assert CANARY.encode() not in received.raw
    assert CANARY not in result.stdout + result.stderr


def test_compare_send_skips_providers_without_a_key_and_names_the_variable(tmp_path, servers):
    path = scenario_for(tmp_path, {"openai": servers["openai"].base_url("openai"),
                                   "anthropic": servers["anthropic"].base_url("anthropic")})
    env = {k: v for k, v in env_with_keys().items() if k != "ANTHROPIC_API_KEY"}
    result = toolchoice("compare", str(path), "--send", "-f", "json", env=env)
    data = json.loads(result.stdout)
    by_id = {p["provider"]: p for p in data["providers"]}
    assert "ANTHROPIC_API_KEY" in by_id["anthropic"]["error"] and "skipped" in by_id["anthropic"]["error"]
    assert by_id["openai"]["reply"]["tool_calls"]
    assert servers["anthropic"].requests == []


def test_compare_send_repeat_gives_each_provider_a_rates_table(tmp_path, servers):
    path = scenario_for(tmp_path, {"openai": servers["openai"].base_url("openai"),
                                   "mistral": servers["mistral"].base_url("mistral")})
    for server in servers.values():
        server.default = Step.reply(server.provider)
    result = toolchoice("compare", str(path), "--send", "--repeat", "3", "-f", "json", env=env_with_keys())
    data = json.loads(result.stdout)
    for entry in data["providers"]:
        assert entry["summary"]["samples"] == 3
        assert sum(entry["summary"]["counts"].values()) == 3
        assert len(entry["results"]) == 3
    assert len(servers["openai"].requests) == 3 and len(servers["mistral"].requests) == 3
    pretty = toolchoice("compare", str(path), "--send", "--repeat", "2", env=env_with_keys() | {"COLUMNS": "200"})
    words = " ".join(pretty.stdout.split())
    assert "95% CI" in words and "p50" in words and "argument diff" in words


def test_compare_send_markdown_and_refusal(tmp_path, servers):
    path = scenario_for(tmp_path, {"openai": servers["openai"].base_url("openai")})
    text = path.read_text().replace("tool_choice: auto", "tool_choice: get_weather")
    text += "  deepseek: {thinking: true}\n"
    path.write_text(text)
    result = toolchoice("compare", str(path), "--send", "-f", "markdown", env=env_with_keys())
    assert "| provider | tool_choice on the wire |" in result.stdout
    assert "refused" in result.stdout  # deepseek with thinking on cannot take a forced choice
    assert result.returncode in (3, 4), result.stderr


def call(name: str, **arguments: Any) -> ToolCall:
    return ToolCall(None, name, arguments)


def test_argument_diff_names_missing_values_case_and_real_differences():
    replies = {
        "openai": Reply(tool_calls=(call("get_weather", city="Paris", unit="celsius"),)),
        "anthropic": Reply(tool_calls=(call("get_weather", city="paris"),)),
        "gemini": Reply(tool_calls=(call("get_weather", city="Paris", unit="fahrenheit"),)),
    }
    diff = argument_diff(replies)
    assert diff["same_tools"] is True
    by_path = {d["path"]: d for d in diff["arguments"]}
    assert by_path["city"]["kind"] == "case"
    assert by_path["unit"]["kind"] == "missing"
    assert by_path["unit"]["values"] == {"openai": "celsius", "anthropic": "<missing>", "gemini": "fahrenheit"}


def test_argument_diff_reports_different_tool_choices_and_nested_paths():
    replies = {
        "openai": Reply(tool_calls=(call("search", filters={"tags": ["a", "b"]}),)),
        "mistral": Reply(tool_calls=(call("search", filters={"tags": ["a", "c"]}), call("read_file", path="x"))),
        "cohere": Reply(text="I can't"),
    }
    diff = argument_diff(replies)
    assert diff["same_tools"] is False
    assert diff["tools"] == {"openai": ["search"], "mistral": ["search", "read_file"], "cohere": []}
    assert [(d["path"], d["kind"]) for d in diff["arguments"]] == [("filters.tags[1]", "differs")]
